package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ohwatch/client/files"
	"ohwatch/reducer"
)

func TestTUIExportGoesUnderTheStateDirectory(t *testing.T) {
	conv, err := files.Load(trajectory(t, "simple_echo_hello_world"))
	if err != nil {
		t.Fatal(err)
	}
	log := reducer.NewLog(nil, 0)
	log.Append(conv.Events...)
	home, state := t.TempDir(), t.TempDir()
	env := map[string]string{"HOME": home, "XDG_STATE_HOME": state}
	e := tuiExport{title: "Fix the cache eviction bug where hot keys are evicted first under load", log: log,
		recorded: true, getenv: func(k string) string { return env[k] },
		now: func() time.Time { return time.Date(2026, 1, 27, 3, 56, 17, 0, time.UTC) }}

	def := e.defaultPath("md")
	if want := filepath.Join(state, "ohwatch", "exports"); filepath.Dir(def) != want {
		t.Fatalf("default %q, want under %q", def, want)
	}
	if name := filepath.Base(def); len(name) > 45 || !strings.HasSuffix(name, "-20260127-035617.md") {
		t.Fatalf("default name %q (%d characters)", name, len(name))
	}
	// The directory is made; the path written is returned.
	got, err := e.write("md", "")
	if err != nil || got != def {
		t.Fatalf("write: %q %v", got, err)
	}
	if raw, err := os.ReadFile(got); err != nil || !strings.Contains(string(raw), "Echo the word howdy") {
		t.Fatalf("export: %v %q", err, raw)
	}
	// An existing file is never overwritten.
	if _, err := e.write("md", def); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("second write: %v", err)
	}
	// A typed path with ~/ is under the home directory.
	got, err = e.write("jsonl", "~/out/conv.jsonl")
	if err != nil || got != filepath.Join(home, "out", "conv.jsonl") {
		t.Fatalf("~/ path: %q %v", got, err)
	}
	// Without XDG_STATE_HOME (or with a relative one): ~/.local/state.
	for _, v := range []string{"", "relative/state"} {
		env["XDG_STATE_HOME"] = v
		if d := filepath.Dir(e.defaultPath("md")); d != filepath.Join(home, ".local", "state", "ohwatch", "exports") {
			t.Fatalf("XDG_STATE_HOME=%q: %q", v, d)
		}
	}
}
