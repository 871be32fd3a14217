package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"ohwatch/client/files"
	"ohwatch/gen"
	"ohwatch/reducer"
)

// compareRoot is a generated conversation and a fork of it, written once
// per test binary: the compare screen's fixture.
var compareRoot struct {
	once sync.Once
	dirs []string
	err  error
}

// compareFixtureDirs are the parent's and the fork's directories.
func compareFixtureDirs(t *testing.T) []string {
	t.Helper()
	compareRoot.once.Do(func() {
		root, err := os.MkdirTemp("", "ohwatch-compare-fixture")
		if err != nil {
			compareRoot.err = err
			return
		}
		compareRoot.dirs, compareRoot.err = gen.WriteRoot(root, gen.Options{Events: 300, Seed: 7, Forks: 1})
	})
	if compareRoot.err != nil {
		t.Fatal(compareRoot.err)
	}
	return compareRoot.dirs
}

// loadedLog reads a recording into a log.
func loadedLog(t *testing.T, dir string) *reducer.Log {
	t.Helper()
	conv, err := files.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	log := reducer.NewLog(conv.Base, conv.EventFiles)
	log.Append(conv.Events...)
	return log
}

// forkPoint is the event a fork directory's meta.json says it was made at.
func forkPoint(t *testing.T, dir string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		ForkedFromEventID string `json:"forked_from_event_id"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m.ForkedFromEventID
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

// pressCompare sends keys one by one.
func pressCompare(c *Compare, keys ...string) {
	for _, k := range keys {
		c.Update(keyMsg(k))
	}
}
