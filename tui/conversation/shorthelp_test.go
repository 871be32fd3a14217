package conversation

import (
	"fmt"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// footerLine is the screen's last line, trailing blanks trimmed.
func footerLine(m *Conversation) string {
	lines := strings.Split(screen(m), "\n")
	return strings.TrimRight(lines[len(lines)-1], " ")
}

// TestShortHelpFitsAndEndsWithHelpQuit: in every pane and screen, at 80
// columns and narrower, the one-line help fits and ends "? help  q quit",
// or "q back" where q goes back a screen (the inspector, the help, the
// picker, a conversation pushed over another screen).
func TestShortHelpFitsAndEndsWithHelpQuit(t *testing.T) {
	t.Parallel()
	contexts := map[string][]string{
		"list": nil, "timeline": {"2"}, "metrics": {"3"}, "tasks": {"4"}, "pending": {"5"},
		"inspector": {"enter"}, "help": {"?"}, "picker": {"f"}, "flash": {"m"}, "pushed": nil,
	}
	back := map[string]bool{"inspector": true, "help": true, "picker": true, "pushed": true}
	for name, keys := range contexts {
		for _, w := range []int{160, 80, 60, 40} {
			t.Run(fmt.Sprintf("%s_%d", name, w), func(t *testing.T) {
				m := liveModel(t, tuitest.WaitingLog(t), w, 24, Options{Title: "t", Controls: &tuitest.Controls{}})
				if name == "pushed" {
					tui.NewModel(NewConversation(Options{})).Update(tui.Push(m)())
				}
				m, _ = press(t, m, keys...)
				line := footerLine(m)
				want := "? help  q quit"
				if back[name] {
					want = "? help  q back"
				}
				if !strings.HasSuffix(line, want) {
					t.Fatalf("the help does not end with %s: %q", want, line)
				}
				if got := m.Cells.Width(line); got > w {
					t.Fatalf("the help is %d cells wide at %d: %q", got, w, line)
				}
			})
		}
	}
}

// TestShortHelpFollowsFocus: the one-line help names what the keys do in
// the focused pane.
func TestShortHelpFollowsFocus(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Recorded(t, fixtures.Plan)}, 80, 24)
	if line := footerLine(m); !strings.Contains(line, "j/k move") || !strings.Contains(line, "enter inspect") {
		t.Fatalf("list help: %q", line)
	}
	m, _ = press(t, m, "4")
	line := footerLine(m)
	if !strings.Contains(line, "j/k scroll tasks") || !strings.Contains(line, "esc events") || strings.Contains(line, "j/k move") {
		t.Fatalf("tasks help: %q", line)
	}
	m, _ = press(t, m, "enter")
	if line := footerLine(m); !strings.Contains(line, "r raw") || !strings.Contains(line, "esc back") {
		t.Fatalf("inspector help: %q", line)
	}
}

// TestDigitsFocusPanesAndPanesScroll: 1…5 focus a pane directly, and j/k
// in a focused pane scroll its content, not the event list.
func TestDigitsFocusPanesAndPanesScroll(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Recorded(t, fixtures.Plan)}, 80, 24)
	m = jumpTo(t, m, "5") // the plan is made: the Tasks pane has more lines than room
	for d, want := range []pane{paneList, paneTimeline, paneMetrics, paneTasks, panePending} {
		m, _ = press(t, m, fmt.Sprint(d+1))
		if m.focus != want {
			t.Fatalf("%d focuses %v, want %v", d+1, m.focus.title(), want.title())
		}
	}
	m, _ = press(t, m, "4")
	cursor := m.cursor
	before := screen(m)
	m, _ = press(t, m, "j", "j")
	if m.cursor != cursor {
		t.Fatalf("j in Tasks moved the cursor from %d to %d", cursor, m.cursor)
	}
	if m.scroll[paneTasks] != 2 || screen(m) == before {
		t.Fatalf("j in Tasks did not scroll the tasks (scroll %d)", m.scroll[paneTasks])
	}
	m, _ = press(t, m, "k")
	if m.scroll[paneTasks] != 1 {
		t.Fatalf("k in Tasks: scroll %d", m.scroll[paneTasks])
	}
	m, _ = press(t, m, "1", "j")
	if m.focus != paneList || m.cursor == cursor {
		t.Fatalf("1 then j: focus %v, cursor %d", m.focus.title(), m.cursor)
	}
}

// TestHelpExplainsEveryGlyph: the full help explains the scrubber's marks
// and the other glyphs, whichever page they are on.
func TestHelpExplainsEveryGlyph(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Generated(t, 20, 1)}, 80, 24)
	m, _ = press(t, m, "?")
	seen := ""
	for range 200 {
		seen += screen(m)
		m, _ = press(t, m, "j")
	}
	flat := strings.Join(strings.Fields(seen), " ")
	g := m.styles.Glyphs
	for _, want := range []string{
		g.ScrubHead + " the cursor", g.MarkError + " an error", g.MarkBook + " a bookmark",
		g.MarkStatus + " a status change", g.MarkUser + " a user turn", g.MarkMatch + " a search match",
		g.Forgotten + " condensed out of view", g.Confirmed + " finished, final", "? finished? may change",
		g.Pinned + " pinned in the past", g.TaskDoing + " in progress", "4 Tasks",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("help never explains %q", want)
		}
	}
}
