package conversation

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/tui/internal/tuitest"
)

// TestKindPickerIsADialog: f opens the picker over the list with its keys
// in the footer; esc gives the list back as it was; space, i, c and F
// edit the filter, which the list behind shows at once; ? does nothing
// while it is open (the picker reads every key); and it opens again on
// the kind it was left at.
func TestKindPickerIsADialog(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.Generated(t, 400, 5)}, 160, 48)
	list := d.Screen()
	d.Press("f").Shows("▌ Filter by kind", "nothing picked: every kind shows", "space pick  i invert  c clear  esc done")
	if d.Press("esc"); d.Screen() != list {
		t.Fatalf("esc did not give the list back as it was:\n%s\nwas:\n%s", d.Screen(), list)
	}
	d.Press("f", "j", "space").Shows("[x] Action", "show only the picked kinds")
	d.Press("i").Shows("hide the picked kinds")
	d.Press("esc").Shows("not Action").Hides("▌ Filter by kind")
	d.Press("f", "c").Shows("nothing picked: every kind shows")
	d.Shows("(noise: hidden by F)").Press("F").Hides("(noise: hidden by F)")
	d.Press("?").Shows("▌ Filter by kind").Hides("▌ Keys")
	d.Press("enter").Hides("▌ Filter by kind").Shows("▌ Events · #")
	d.Press("f").Shows("▶ [ ] Action")
}

// TestMouseOverTheListWaitsForHelpAndPicker: with the help or the picker
// drawn over the list, the wheel and a click there move nothing; once
// closed, the wheel moves the cursor again.
func TestMouseOverTheListWaitsForHelpAndPicker(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.Generated(t, 400, 5)}, 160, 48)
	wheel := tea.MouseWheelMsg{Button: tea.MouseWheelDown, X: 10, Y: 10}
	click := tea.MouseClickMsg{Button: tea.MouseLeft, X: 10, Y: 8}
	for _, open := range []string{"?", "f"} {
		d.Press(open).Send(wheel).Send(click).Press("esc")
		d.Shows("▌ Events · #1/400")
	}
	d.Send(wheel).Hides("▌ Events · #1/400")
}

// TestHelpOpensOverTheInspector: ? on the inspector opens the reference
// over it, and esc gives the inspector back.
func TestHelpOpensOverTheInspector(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.ErrorLog(t)}, 100, 30)
	d.Press("]", "enter").Shows("esc back")
	inspector := d.Screen()
	d.Press("?").Shows("▌ Keys", "j/k scroll help  esc close").Hides("esc back")
	if d.Press("esc"); d.Screen() != inspector {
		t.Fatalf("esc on the help did not give the inspector back:\n%s\nwas:\n%s", d.Screen(), inspector)
	}
}

// TestHelpTakesTheCompactBody: in the compact layout the reference is
// drawn over the list, the focused pane and the summary alike, right
// under the header, and closing it gives them back.
func TestHelpTakesTheCompactBody(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.Generated(t, 40, 1)}, 80, 30)
	d.Press("2").Shows("no status change yet", "pending 0")
	before := d.Screen()
	// 30 rows less the header (2), the scrubber, the footer and the
	// reference's title: 25 lines of it.
	d.Press("?").Shows("▌ Keys  1-25 of").Hides("no status change yet", "pending 0", "▌ Events")
	if row := helpTitleRow(t, d); row != 2 {
		t.Fatalf("the help starts on row %d, not under the header:\n%s", row, d.Screen())
	}
	if d.Press("q"); d.Screen() != before {
		t.Fatalf("q on the help did not give the body back:\n%s\nwas:\n%s", d.Screen(), before)
	}
}

// TestPickerFiltersComeInAnyOrder: the picker's filters reach the view
// from commands, which the program runs at once and whose answers may
// come in any order; one sent before a filter the view already took
// (here, after the picker closed) is dropped. The driver runs commands
// in order, so this test hands their messages over itself.
func TestPickerFiltersComeInAnyOrder(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Generated(t, 400, 5), NoColor: true}, 160, 48)
	m.Update(tuitest.KeyMsg("f"))
	onlyMsg := m.Update(tuitest.KeyMsg("space"))
	m.Update(tuitest.KeyMsg("j"))
	msgAndAction := m.Update(tuitest.KeyMsg("space"))
	closed := m.Update(tuitest.KeyMsg("esc"))
	for _, cmd := range []tea.Cmd{msgAndAction, closed, onlyMsg} {
		m.Update(cmd())
	}
	if out := screen(m); !strings.Contains(out, "noise hidden, Msg,Action ") {
		t.Fatalf("an older filter of the picker replaced the last one:\n%s", out)
	}
}
