package fleetview

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
	"ohwatch/tui/internal/tuitest"
	"ohwatch/tui/text"
)

// TestModeReportReachesEveryScreen: the terminal's report of mode 2027
// reaches every screen through the router (the one on top, one beneath
// it, one pushed after the report), and the views that had drawn per
// codepoint draw again exactly as views measured by cluster from the
// start: the list's rows and the inspector's raw JSON are not kept.
func TestModeReportReachesEveryScreen(t *testing.T) {
	t.Parallel()
	// stack is a router with a view at its root and one pushed over it,
	// open on the raw JSON of a message of thumbs with skin tones (four
	// cells each per codepoint, two as a cluster), unfolded; each view is
	// drawn once, and the terminal reports mode 2027 first or last.
	stack := func(reportFirst bool) (r *tui.Model, root, top *conversation.Conversation) {
		root = newModel(conversation.Options{Log: tuitest.WideTextLog(t)}, 80, 24)
		r = tui.NewModel(root)
		r.Update(tuitest.WindowSize(80, 24))
		if reportFirst {
			r.Update(tuitest.UnicodeCore)
		}
		screen(root)
		top = newModel(conversation.Options{Log: tuitest.WideTextLog(t)}, 80, 24)
		r.Update(tui.Push(top)())
		// The message's text is the eighth line of its raw JSON, folded.
		top, _ = press(t, top, "enter", "r", "j", "j", "j", "j", "j", "j", "j", "enter")
		tuitest.AssertShapeUnder(t, top.Cells, screen(top), 80, 24)
		if !reportFirst {
			r.Update(tuitest.UnicodeCore)
		}
		return r, root, top
	}
	r, root, top := stack(false)
	later := newModel(conversation.Options{Log: tuitest.WideTextLog(t)}, 80, 24)
	r.Update(tui.Push(later)())
	for name, m := range map[string]*conversation.Conversation{"beneath": root, "on top": top, "pushed after": later} {
		if m.Cells != text.Graphemes() {
			t.Errorf("the view %s measures per codepoint after the report", name)
		}
	}
	_, wantRoot, wantTop := stack(true)
	if got, want := screen(root), screen(wantRoot); got != want {
		t.Errorf("the view beneath kept rows it measured per codepoint:\n%s\nwant\n%s", got, want)
	}
	if got, want := screen(top), screen(wantTop); got != want {
		t.Errorf("the inspector kept raw rows it wrapped per codepoint:\n%s\nwant\n%s", got, want)
	}

	// The fleet table, its titles joined emoji, draws to the width the
	// terminal counts by cluster once it has reported so.
	fleetRoot := newFleetScreen(t, 80, 24, FleetOptions{})
	feedFleet(fleetRoot, []model.FleetUpdate{metaUp(fleetRef("cloud", "w1"), model.ConversationMeta{Title: strings.Repeat("👩\u200d👩\u200d👧\u200d👦", 4) + " family"})})
	tui.NewModel(fleetRoot).Update(tuitest.UnicodeCore)
	tuitest.AssertShapeUnder(t, text.Graphemes(), fleetRoot.View(), 80, 24)
	// A terminal that does not know the mode keeps the renderer's count.
	plain := newModel(conversation.Options{Log: tuitest.WideTextLog(t)}, 80, 24)
	tui.NewModel(plain).Update(tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeNotRecognized})
	if plain.Cells != (text.Cells{}) {
		t.Error("a terminal that does not know mode 2027 is measured by cluster")
	}
}
