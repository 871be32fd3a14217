package session

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ohwatch/config"
)

// loadConfigText writes text as a configuration file and loads it.
func loadConfigText(t *testing.T, text string) (*config.Config, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return c, path
}

// TestKeyMapsFromTheFile: the TUI's key maps take the file's bindings
// over their defaults.
func TestKeyMapsFromTheFile(t *testing.T) {
	t.Parallel()
	c, _ := loadConfigText(t, "keys:\n  monitor:\n    bookmark: K\n    copy: [y, ctrl+y]\n  fleet:\n    group: b\n")
	km, fkm, err := KeyMaps(c)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(km.Bookmark.Keys(), []string{"K"}) || !slices.Equal(km.Copy.Keys(), []string{"y", "ctrl+y"}) || !slices.Equal(fkm.Group.Keys(), []string{"b"}) {
		t.Errorf("bookmark %v copy %v group %v", km.Bookmark.Keys(), km.Copy.Keys(), fkm.Group.Keys())
	}
	if def, _, _ := KeyMaps(nil); !slices.Equal(def.Down.Keys(), km.Down.Keys()) {
		t.Errorf("down: %v, default %v", km.Down.Keys(), def.Down.Keys())
	}
}

// TestKeyMapsRefuseAtTheLine: an unknown action or a clash in the file is
// one line naming the file's line and the key, as any other mistake in it.
func TestKeyMapsRefuseAtTheLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ text, want string }{
		{"keys:\n  monitor:\n    down: j\n    bookmarkk: M\n", `:4: keys.monitor.bookmarkk: no such action`},
		{"keys:\n  monitor:\n    bookmark: n\n", `:3: keys.monitor.bookmark: "n" is already the key of next-match`},
		{"keys:\n  fleet:\n    group: s\n", `:3: keys.fleet.group: "s" is already the key of sort`},
	} {
		cfg, path := loadConfigText(t, c.text)
		_, _, err := KeyMaps(cfg)
		if _, ok := err.(*config.Error); !ok || !strings.HasPrefix(err.Error(), path+c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v, want %s%s", c.text, err, path, c.want)
		}
	}
}

// TestConfigWriteListsEveryBinding: `ohwatch config` lists every action
// of both screens, the file's where it rebinds one, and what it prints
// loads back to the same bindings.
func TestConfigWriteListsEveryBinding(t *testing.T) {
	t.Parallel()
	c, path := loadConfigText(t, "keys:\n  monitor:\n    bookmark: K\n")
	var out bytes.Buffer
	if err := c.Write(&out, KeyDefaults()...); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`    bookmark: \[K\]\s+# ` + regexp.QuoteMeta(path) + `:3\n`,
		`    prev-bookmark: \["\\""\]\s+# default\n`,
		`  fleet:\s*\n(    .*\n)*    group: \[v\]\s+# default\n`,
	} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("lacks %s:\n%s", want, out.String())
		}
	}
	again, _ := loadConfigText(t, out.String())
	km, _, err := KeyMaps(again)
	if err != nil || !slices.Equal(km.Bookmark.Keys(), []string{"K"}) {
		t.Errorf("loaded back: bookmark %v (%v)", km.Bookmark.Keys(), err)
	}
}
