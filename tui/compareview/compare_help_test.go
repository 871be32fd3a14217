package compareview

import (
	"testing"

	"ohwatch/tui/internal/tuitest"
)

// TestCompareHelpOpensOverTheListAndTheDetail: ? opens the key reference
// from the rows and from an event's detail; the reference reads every
// key (q closes it rather than leaving), and closing it finds the screen
// as it was.
func TestCompareHelpOpensOverTheListAndTheDetail(t *testing.T) {
	t.Parallel()
	d := tuitest.Drive(t, compareFixture(t, 120, 40), 120, 40)
	rows := d.Screen()
	d.Press("?").Shows("ohwatch compare · keys", "/ find · esc or ? closes")
	d.Press("x").Shows("esc, ? or q closes the help")
	d.Press("j", "G", "q").Hides("ohwatch compare · keys")
	if d.Quit() || d.Screen() != rows {
		t.Fatalf("the help let its keys through to the rows:\n%s\nwas:\n%s", d.Screen(), rows)
	}
	d.Press("enter").Shows("esc close")
	detail := d.Screen()
	d.Press("?").Shows("ohwatch compare · keys").Press("esc")
	if got := d.Screen(); got != detail {
		t.Fatalf("closing the help lost the detail:\n%s\nwas:\n%s", got, detail)
	}
}
