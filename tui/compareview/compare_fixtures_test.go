package compareview

import (
	"testing"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/tui/internal/tuitest"
)

// compareFixture is the compare screen of the fixture's parent (A) and
// fork (B), w×h, with no colour, aligned.
func compareFixture(t *testing.T, w, h int) *Compare {
	t.Helper()
	dirs := tuitest.ForkPair(t)
	c := NewCompare(CompareOptions{
		A:       CompareSide{Title: "parent", Source: "replay parent", Log: tuitest.ForkPairLog(t, dirs[0]), Ended: true},
		B:       CompareSide{Title: "fork", Source: "replay fork", Log: tuitest.ForkPairLog(t, dirs[1]), Ended: true},
		NoColor: true,
		Profile: colorprofile.NoTTY,
	})
	c.SetSize(w, h)
	alignNow(c)
	return c
}

// alignNow runs the screen's alignment command and hands it the result.
func alignNow(c *Compare) {
	cmd := c.align()
	if cmd == nil {
		return
	}
	c.Update(cmd())
}

// pressCompare sends keys one by one, and hands the screen the detail a
// key's command builds, as the runtime would.
func pressCompare(c *Compare, keys ...string) {
	for _, k := range keys {
		if cmd := c.Update(tuitest.KeyMsg(k)); cmd != nil {
			if msg, ok := cmd().(compareDetailMsg); ok {
				c.Update(msg)
			}
		}
	}
}
