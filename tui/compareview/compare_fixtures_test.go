package compareview

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
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

// alignFunc and batchFunc name the screen's alignment command and
// tea.Batch's, by the functions the compiler makes
// (TestAlignNowFindsTheAlignment fails if it names them otherwise).
var (
	alignFunc = regexp.MustCompile(`\(\*Compare\)\.align\.func\d+$`)
	batchFunc = regexp.MustCompile(`(\.Batch|compactCmds\[\.\.\.\])\.func\d+$`)
)

// alignNow runs the alignment the screen asks for as it starts (among
// Init's commands) and hands it the result, as the runtime would; the
// feed waits and the colour query are not run.
func alignNow(c *Compare) {
	runAlign(c, c.Init())
}

// runAlign runs the alignment among cmd's commands.
func runAlign(c *Compare, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch name := tuitest.FuncOf(cmd); {
	case alignFunc.MatchString(name):
		c.Update(cmd())
	case batchFunc.MatchString(name):
		if batch, ok := cmd().(tea.BatchMsg); ok {
			for _, child := range batch {
				runAlign(c, child)
			}
		}
	}
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

// TestAlignNowFindsTheAlignment: the fixtures align by the alignment
// command's name; if the compiler ever names it otherwise, this fails
// rather than every test that reads an aligned screen.
func TestAlignNowFindsTheAlignment(t *testing.T) {
	dirs := tuitest.ForkPair(t)
	c := NewCompare(CompareOptions{
		A:       CompareSide{Title: "parent", Source: "replay parent", Log: tuitest.ForkPairLog(t, dirs[0]), Ended: true},
		B:       CompareSide{Title: "fork", Source: "replay fork", Log: tuitest.ForkPairLog(t, dirs[1]), Ended: true},
		NoColor: true,
		Profile: colorprofile.NoTTY,
	})
	c.SetSize(120, 30)
	before := c.View()
	alignNow(c)
	if after := c.View(); after == before || strings.Contains(after, "aligning") {
		t.Fatalf("alignNow did not align:\n%s", after)
	}
}
