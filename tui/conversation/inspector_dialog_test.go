package conversation

import (
	"regexp"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/tui/internal/tuitest"
)

// TestInspectorOpensOverTheList: enter opens the inspector in the list's
// place; the keys that move the cursor and that it does not use itself
// (] next error, G, g) move the event it shows, in the mode it is in;
// esc closes it and the list is back, where the cursor went.
func TestInspectorOpensOverTheList(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.ErrorLog(t)}, 120, 40)
	d.Shows("▌ Events").Press("enter").Shows("▌ Inspect #1", "[event]", "esc back").Hides("▌ Events")
	d.Press("r", "]").Shows("▌ Inspect #7", "[raw JSON]", `"exit_code": 1`)
	d.Press("G").Shows("▌ Inspect #10", "[raw JSON]")
	d.Press("g").Shows("▌ Inspect #1", "[raw JSON]")
	d.Press("]", "esc").Hides("▌ Inspect").Shows("▌ Events · #7/10")
	// A new opening starts on the rendered event.
	d.Press("enter").Shows("▌ Inspect #7", "[event]")
}

// TestInspectorUnderTheOtherViews: the key reference and the kind picker
// open over the inspector and read the keys first; esc closes them, not
// the inspector under them.
func TestInspectorUnderTheOtherViews(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.ErrorLog(t)}, 120, 40)
	d.Press("]", "enter", "?").Shows("▌ Keys").Hides("▌ Inspect")
	d.Press("j", "esc").Shows("▌ Inspect #7").Hides("▌ Keys")
	d.Press("f").Hides("▌ Inspect").Press("esc").Shows("▌ Inspect #7")
	d.Press("esc").Hides("▌ Inspect")
}

// TestInspectorKeysAreActions: a key the inspector takes replaces the
// footer's last message, as the list's keys do; the raw view's wrapping
// outlives the inspector, for the next opening.
func TestInspectorKeysAreActions(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.ErrorLog(t)}, 120, 40)
	d.Press("enter", "m").Shows("bookmarked #1")
	d.Press("j").Hides("bookmarked #1").Shows("▌ Inspect #1")
	d.Press("r", "w").Shows("unwrapped")
	d.Press("esc", "enter", "r").Shows("[raw JSON]", "unwrapped")
}

// TestInspectorTakesTheWheelOverIt: over the inspector the wheel scrolls
// the event, not the list's cursor, and a click on it selects no row
// under it; over a side pane the wheel is the pane's.
func TestInspectorTakesTheWheelOverIt(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.ErrorLog(t)}, 120, 40)
	d.Press("enter").Shows("▌ Inspect #1", " 1-")
	title := regexp.MustCompile(`▌ Inspect #1 .* 4-`)
	d.Send(tea.MouseWheelMsg{X: 10, Y: 6, Button: tea.MouseWheelDown})
	if !title.MatchString(d.Screen()) {
		t.Fatalf("the wheel did not scroll the inspector:\n%s", d.Screen())
	}
	d.Send(tea.MouseClickMsg{X: 10, Y: 8, Button: tea.MouseLeft}).Shows("▌ Inspect #1")
	d.Press("esc").Shows("▌ Events · #1/10")
}
