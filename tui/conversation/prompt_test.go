package conversation

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/internal/fixtures"
	"ohwatch/tui/internal/tuitest"
)

// lastRow is the bottom line of a screen: the footer, where a prompt is
// typed.
func lastRow(screen string) string {
	return screen[strings.LastIndexByte(screen, '\n')+1:]
}

// cursorRow is the event the list's cursor is on ("#12"), read off the
// screen's row marked ▶; "" when no row is.
func cursorRow(screen string) string {
	for _, row := range strings.Split(screen, "\n") {
		if _, after, ok := strings.Cut(row, "▶"); ok {
			if f := strings.Fields(after); len(f) > 0 {
				return f[0]
			}
		}
	}
	return ""
}

// searchPrompt reads the text of the open search prompt off the screen:
// what follows "/" up to the hint, the cursor's block left out; ok is
// false when the footer shows no search prompt.
func searchPrompt(screen string) (text string, ok bool) {
	row, found := strings.CutPrefix(ansi.Strip(lastRow(screen)), "/")
	if !found {
		return "", false
	}
	row, _, found = strings.Cut(row, "  enter keep · ↑ earlier searches")
	if !found {
		return "", false
	}
	return strings.Replace(row, "█", "", 1), true
}

// TestPromptIsADialogInTheFooter: the jump prompt opens in the footer's
// place, takes what is typed and pasted, and enter does what it asks and
// gives the footer back.
func TestPromptIsADialogInTheFooter(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.Recorded(t, fixtures.Confirm)}, 160, 48)
	d.Press("g")
	d.Press(":")
	if row := d.Row(-1); !strings.HasPrefix(row, ":█") {
		t.Fatalf("the footer is not the prompt: %q", row)
	}
	d.Type("1").Send(tea.PasteMsg{Content: "0"})
	if row := d.Row(-1); !strings.HasPrefix(row, ":10█") {
		t.Fatalf("typed and pasted: %q", row)
	}
	d.Press("enter")
	if at := cursorRow(d.Screen()); at != "#10" {
		t.Fatalf(":10 put the cursor on %s", at)
	}
	if row := d.Row(-1); strings.HasPrefix(row, ":") || !strings.Contains(row, "? help") {
		t.Fatalf("the footer is not given back: %q", row)
	}
}

// TestPromptEscAndCtrlCCancel: esc and ctrl+c close the prompt and do
// nothing else — ctrl+c inside a prompt cancels it, it does not end the
// program — and a search typed then cancelled puts the list back where it
// was, without the search.
func TestPromptEscAndCtrlCCancel(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.Generated(t, 500, 3)}, 160, 48)
	d.Press("g")
	for _, k := range []string{"esc", "ctrl+c"} {
		d.Press(":").Type("40").Press(k)
		if at := cursorRow(d.Screen()); at != "#1" || d.Quit() || strings.HasPrefix(d.Row(-1), ":") {
			t.Fatalf("%s in the jump prompt: cursor on %s, program ended %v", k, at, d.Quit())
		}
		d.Press("/").Type("test suite")
		if at := cursorRow(d.Screen()); at == "#1" {
			t.Fatalf("typing does not preview the search:\n%s", d.Screen())
		}
		d.Press(k).Hides("match ")
		if _, open := searchPrompt(d.Screen()); open {
			t.Fatalf("%s does not close the search prompt", k)
		}
		if at := cursorRow(d.Screen()); at != "#1" || d.Quit() {
			t.Fatalf("%s in the search prompt: cursor on %s, program ended %v", k, at, d.Quit())
		}
	}
}

// TestSearchPromptWalksItsHistory: ↑ recalls the searches kept with
// enter, latest first, and ↓ comes back to an empty prompt.
func TestSearchPromptWalksItsHistory(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.Generated(t, 500, 3)}, 160, 48)
	d.Press("/").Type("Read").Press("enter")
	d.Press("/").Type("test suite").Press("enter")
	d.Press("/")
	for _, st := range []struct{ key, want string }{
		{"up", "test suite"}, {"up", "Read"}, {"up", "Read"}, {"down", "test suite"}, {"down", ""},
	} {
		d.Press(st.key)
		if got, ok := searchPrompt(d.Screen()); !ok || got != st.want {
			t.Fatalf("%s: the prompt holds %q, want %q:\n%s", st.key, got, st.want, d.Screen())
		}
	}
}

// TestGuardsPromptChangesTheGuards: L offers the rules in force to edit;
// what enter keeps is in force, shown the next time L opens.
func TestGuardsPromptChangesTheGuards(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.ErrorLog(t), Guards: guardSet(t, "errors>5")}, 200, 48)
	d.Press("L")
	if row := d.Row(-1); !strings.HasPrefix(row, "guards: errors>5█  errors>5 ") {
		t.Fatalf("L does not offer the rules in force: %q", row)
	}
	d.Press("ctrl+u").Type("steps>50, cost>5:pause").Press("enter").Shows("guards: steps>50, cost>5:pause")
	d.Press("L")
	if row := d.Row(-1); !strings.HasPrefix(row, "guards: steps>50, cost>5:pause█  steps>50 ") {
		t.Fatalf("the change is not in force: %q", row)
	}
	// esc leaves them as they are.
	d.Press("ctrl+u", "esc", "L")
	if row := d.Row(-1); !strings.HasPrefix(row, "guards: steps>50, cost>5:pause█") {
		t.Fatalf("esc changed the guards: %q", row)
	}
}
