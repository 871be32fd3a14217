package compareview

import (
	"sync"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/client/files"
	"ohwatch/gen"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// compareRoot is a generated conversation and a fork of it, written to
// the first caller's temporary directory and read once per test binary:
// the compare screen's fixture, kept in memory.
var compareRoot struct {
	once  sync.Once
	convs map[string]*files.Conversation
	err   error
}

// compareFixtureDirs names the fixture's two recordings, the parent's and
// the fork's, for loadedLog and forkPoint.
func compareFixtureDirs(t *testing.T) []string {
	t.Helper()
	compareRoot.once.Do(func() {
		dirs, err := gen.WriteRoot(t.TempDir(), gen.Options{Events: 300, Seed: 7, Forks: 1})
		if err != nil {
			compareRoot.err = err
			return
		}
		compareRoot.convs = map[string]*files.Conversation{}
		for k, name := range []string{"parent", "fork"} {
			conv, err := files.Load(dirs[k])
			if err != nil {
				compareRoot.err = err
				return
			}
			compareRoot.convs[name] = conv
		}
	})
	if compareRoot.err != nil {
		t.Fatal(compareRoot.err)
	}
	return []string{"parent", "fork"}
}

// loadedLog is a fresh log of the fixture's recording name.
func loadedLog(t *testing.T, name string) *reducer.Log {
	t.Helper()
	compareFixtureDirs(t)
	conv := compareRoot.convs[name]
	log := reducer.NewLog(conv.Base, conv.EventFiles)
	log.Append(conv.Events...)
	return log
}

// forkPoint is the event the fixture's fork was made at, as its meta.json
// says.
func forkPoint(t *testing.T, name string) string {
	t.Helper()
	compareFixtureDirs(t)
	point := compareRoot.convs[name].ForkedFromEvent
	if point == "" {
		t.Fatalf("%s names no fork point", name)
	}
	return point
}

// compareFixture is the compare screen of the fixture's parent (A) and
// fork (B), w×h, with no colour, aligned.
func compareFixture(t *testing.T, w, h int) *Compare {
	t.Helper()
	dirs := compareFixtureDirs(t)
	c := NewCompare(CompareOptions{
		A:       CompareSide{Title: "parent", Source: "replay parent", Log: loadedLog(t, dirs[0]), Ended: true},
		B:       CompareSide{Title: "fork", Source: "replay fork", Log: loadedLog(t, dirs[1]), Ended: true},
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
