package conversation

import (
	"testing"

	"ohwatch/tui/internal/tuitest"
)

// TestDriverReadsTheViewFromOutside: the help opens and closes, and the
// inspector opens on an event and shows it, all through keys and the
// screen's text alone.
func TestDriverReadsTheViewFromOutside(t *testing.T) {
	d := drive(t, Options{Log: tuitest.ErrorLog(t)}, 100, 30)
	d.Shows("Events").Press("?").Shows("▌ Keys", "next event").Press("esc").Hides("▌ Keys")
	d.Press("enter").Shows("esc back")
}
