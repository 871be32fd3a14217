package config

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ohwatch/fleet"
	"ohwatch/theme"
)

func write(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLoad: every setting of a file is read, with its line.
func TestLoad(t *testing.T) {
	t.Parallel()
	path := write(t, `# mine
theme: light
notifications: false
fleet:
  sources: [/tmp/convs, "http://127.0.0.1:8000", ~/convs]
  columns: [status, cost, idle, errors]
  sort: cost
  reverse: true
  group: source
keys:
  monitor:
    bookmark: K
    copy: [y, ctrl+y]
  fleet:
    group: b
`)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Found || c.Theme.Value != theme.LightMode || c.Theme.From.String() != path+":2" {
		t.Errorf("theme %v from %v", c.Theme.Value, c.Theme.From)
	}
	if c.Notifications.Value || c.Notifications.From.Line != 3 {
		t.Errorf("notifications %v from %v", c.Notifications.Value, c.Notifications.From)
	}
	home, _ := os.UserHomeDir()
	if !slices.Equal(c.Sources.Value, []string{"/tmp/convs", "http://127.0.0.1:8000", filepath.Join(home, "convs")}) {
		t.Errorf("sources %v", c.Sources.Value)
	}
	if !slices.Equal(c.FleetColumns(), []fleet.Column{fleet.ColStatus, fleet.ColCost, fleet.ColIdle, fleet.ColErrors}) {
		t.Errorf("columns %v", c.FleetColumns())
	}
	if q := c.FleetOrder(); q.Sort != fleet.ColCost || !q.Desc || !q.BySource {
		t.Errorf("order %+v", q)
	}
	if got := c.Rebound("monitor")["bookmark"]; !slices.Equal(got, []string{"K"}) || c.Keys["bookmark"].From.Line != 12 {
		t.Errorf("bookmark %v from %v", got, c.Keys["bookmark"].From)
	}
	if got := c.Rebound("monitor")["copy"]; !slices.Equal(got, []string{"y", "ctrl+y"}) {
		t.Errorf("copy %v", got)
	}
	if got := c.Rebound("fleet")["group"]; !slices.Equal(got, []string{"b"}) || c.FleetKeys["group"].From.Line != 15 {
		t.Errorf("fleet group %v", got)
	}
	if _, ok := c.Keys["down"]; ok {
		t.Errorf("down, which the file leaves, is rebound: %v", c.Keys["down"])
	}
	if err := c.KeyError("fleet", "group", "refused"); err.Error() != path+":15: keys.fleet.group: refused" {
		t.Errorf("KeyError: %v", err)
	}
}

// TestNoFile: a file that does not exist leaves the defaults; the path
// follows XDG_CONFIG_HOME, else HOME.
func TestNoFile(t *testing.T) {
	t.Parallel()
	c, err := Load(filepath.Join(t.TempDir(), "none.yaml"))
	if err != nil || c.Found || c.Theme.Value != theme.Auto || !c.Notifications.Value || c.FleetOrder().Sort != fleet.ColIdle {
		t.Fatalf("%+v %v", c, err)
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if got := Path(env(map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"})); got != "/x/ohwatch/config.yaml" {
		t.Errorf("XDG: %s", got)
	}
	if got := Path(env(map[string]string{"HOME": "/h"})); got != "/h/.config/ohwatch/config.yaml" {
		t.Errorf("HOME: %s", got)
	}
}

// TestErrors: every mistake is one line naming the file's line and the key.
func TestErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ text, want string }{
		{"theme: dark\nthem: light\n", `:2: them: unknown setting`},
		{"theme: blue\n", `:1: theme: unknown theme "blue"`},
		{"notifications: sometimes\n", `:1: notifications: want true or false`},
		{"fleet:\n  sort: price\n", `:2: fleet.sort: unknown column "price"`},
		{"fleet:\n  columns: [title, nope]\n", `:2: fleet.columns: unknown column "nope"`},
		{"fleet:\n  group: model\n", `:2: fleet.group: want source or none`},
		{"keys:\n  pager: {}\n", `:2: keys.pager: unknown setting`},
		{"theme: [dark\n", `:1: `},
		{"- a\n- b\n", `:1: the file must be a mapping`},
	} {
		path := write(t, c.text)
		_, err := Load(path)
		if err == nil || !strings.HasPrefix(err.Error(), path+c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v, want %s%s", c.text, err, path, c.want)
		}
	}
}

// TestPrecedence: the environment overrides the file, a flag overrides
// both, and a weaker origin never undoes a stronger one.
func TestPrecedence(t *testing.T) {
	t.Parallel()
	c, err := Load(write(t, "theme: light\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ApplyEnv(func(k string) string { return map[string]string{"OHWATCH_THEME": "dark"}[k] }); err != nil {
		t.Fatal(err)
	}
	if c.Theme.Value != theme.DarkMode || c.Theme.From.String() != "env OHWATCH_THEME" {
		t.Fatalf("env: %v from %v", c.Theme.Value, c.Theme.From)
	}
	c.Theme.Set(theme.LightMode, Origin{Kind: Flag, Name: "--theme"})
	c.Theme.Set(theme.Auto, Origin{Kind: File, Name: "x", Line: 1})
	if c.Theme.Value != theme.LightMode || c.Theme.From.String() != "flag --theme" {
		t.Fatalf("flag: %v from %v", c.Theme.Value, c.Theme.From)
	}
	if err := c.ApplyEnv(func(string) string { return "pink" }); err == nil || !strings.HasPrefix(err.Error(), "OHWATCH_THEME: ") {
		t.Errorf("bad env: %v", err)
	}
}

// TestWrite: the effective configuration is printed with where each
// value came from, and what it prints loads back to the same values.
func TestWrite(t *testing.T) {
	t.Parallel()
	path := write(t, "theme: light\nkeys:\n  monitor:\n    bookmark: K\n")
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	screens := []ScreenKeys{
		{Screen: "monitor", Bindings: []Binding{{"bookmark", []string{"m"}}, {"prev-bookmark", []string{`"`}}}},
		{Screen: "fleet", Bindings: []Binding{{"sort", []string{"s"}}, {"group", []string{"v"}}}},
	}
	if err := c.Write(&out, screens...); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`theme: light\s+# ` + regexp.QuoteMeta(path) + `:1\n`,
		`notifications: true\s+# default\n`,
		`    bookmark: \[K\]\s+# ` + regexp.QuoteMeta(path) + `:4\n`,
		`    prev-bookmark: \["\\""\]\s+# default\n`,
		`  fleet:\s*\n(    .*\n)*    group: \[v\]\s+# default\n`,
	} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("lacks %s:\n%s", want, out.String())
		}
	}
	again, err := Load(write(t, out.String()))
	if err != nil {
		t.Fatalf("the printed configuration does not load: %v\n%s", err, out.String())
	}
	if again.Theme.Value != theme.LightMode || !slices.Equal(again.Rebound("monitor")["bookmark"], []string{"K"}) {
		t.Errorf("loaded back: theme %v, bookmark %v", again.Theme.Value, again.Rebound("monitor")["bookmark"])
	}
}
