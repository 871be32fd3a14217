package conversation

import (
	"encoding/json"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/internal/fixtures"
	"ohwatch/theme"

	"ohwatch/tui/internal/tuitest"
)

func TestMessagesRenderAsMarkdownInACommand(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		m := newModel(Options{Log: tuitest.Recorded(t, fixtures.Plan)}, 120, 40)
		m, _ = press(t, m, "G", "enter")
		md := m.insp.data.md
		if md == nil || md.lines == nil || md.width != m.layout().list.w {
			t.Fatalf("the message was not rendered when the inspector opened: %+v", md)
		}
		out := screen(m)
		// The markdown table is drawn as a table, not left as pipes.
		if !strings.Contains(out, "---|---") || strings.Contains(out, "|---|") {
			t.Fatalf("markdown not rendered:\n%s", out)
		}
		// Frames read the rendering; they never render.
		before := m.markdown.Renders()
		for range 3 {
			_ = screen(m)
			m, _ = press(t, m, "j")
		}
		if n := m.markdown.Renders() - before; n != 0 {
			t.Fatalf("frames and scrolling rendered markdown %d times", n)
		}
		// A resize asks for it again, at the new width, in a command; until
		// it comes the plain text shows.
		m, cmd := send(m, tuitest.WindowSize(90, 30))
		if m.markdown.Renders() != before || m.insp.data.md.width == m.layout().list.w {
			t.Fatal("the resize rendered markdown in Update")
		}
		m = runCmd(t, m, cmd)
		if m.insp.data.md.width != m.layout().list.w || m.markdown.Renders() == before {
			t.Fatalf("resize: markdown for width %d, list %d", m.insp.data.md.width, m.layout().list.w)
		}
	})
}

func TestMarkdownFollowsThePalette(t *testing.T) {
	t.Parallel()
	log := tuitest.Recorded(t, fixtures.Plan)
	for _, tt := range []struct {
		opts Options
		bg   tea.Msg
		want string
	}{
		{Options{Log: log, NoColor: true}, nil, "mono"},
		{Options{Log: log, NoColor: true, Profile: colorprofile.NoTTY}, nil, "notty"},
		{Options{Log: log, Profile: colorprofile.TrueColor, Theme: theme.DarkMode}, nil, "dark"},
		{Options{Log: log, Profile: colorprofile.TrueColor, Theme: theme.LightMode}, nil, "light"},
		{Options{Log: log, Profile: colorprofile.TrueColor}, tea.BackgroundColorMsg{Color: color.White}, "light"},
	} {
		m := NewConversation(tt.opts)
		m, _ = send(m, tuitest.WindowSize(120, 40))
		if tt.bg != nil {
			m, _ = send(m, tt.bg)
		}
		m, _ = press(t, m, "G", "enter")
		if got := m.insp.data.md.style; got != tt.want {
			t.Errorf("%+v: markdown style %q, want %q", tt.bg, got, tt.want)
		}
	}
}

func TestMarkdownIsSanitisedFirst(t *testing.T) {
	t.Parallel()
	raw := `{"id":"m1","timestamp":"2026-01-27T03:56:17.000000","source":"agent","llm_message":{"role":"assistant","content":[{"type":"text","text":` +
		string(mustJSON(t, "# Title\n\n"+tuitest.HostileText)) + `}]},"kind":"MessageEvent"}`
	m := NewConversation(Options{Log: tuitest.FixtureLog(t, raw), Profile: colorprofile.TrueColor, Theme: theme.DarkMode})
	m, _ = send(m, tuitest.WindowSize(120, 40))
	m, _ = press(t, m, "enter")
	for _, l := range m.insp.data.md.lines {
		for _, bad := range []string{"\x1b]", "\x1b[2J", "\r", "\u202e", "\u009b"} {
			if strings.Contains(l, bad) {
				t.Fatalf("rendered markdown carries %q: %q", bad, l)
			}
		}
	}
	if !strings.Contains(screen(m), "Title") {
		t.Fatal("heading lost")
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCopyUsesANativeClipboard(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "clipboard")
	script := "#!/bin/sh\n[ \"$1 $2\" = \"-selection clipboard\" ] || exit 3\nexec /bin/cat > " + out + "\n"
	if err := os.WriteFile(filepath.Join(dir, "xclip"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	log := tuitest.Recorded(t, fixtures.Echo)
	m := newModel(Options{Log: log}, 160, 48)
	m, _ = press(t, m, "j")
	m, cmd := press(t, m, "y")
	m = runCmd(t, m, cmd)
	got, err := os.ReadFile(out)
	if err != nil || string(got) != string(log.Event(1).Raw) {
		t.Fatalf("xclip got %q (%v)", got, err)
	}
	if !strings.Contains(m.Flash, "via OSC 52 and xclip") {
		t.Fatalf("flash %q", m.Flash)
	}
	// Without any tool the footer says the copy went by OSC 52 alone.
	t.Setenv("PATH", t.TempDir())
	m, cmd = press(t, m, "y")
	m = runCmd(t, m, cmd)
	if !strings.Contains(m.Flash, "OSC 52 only") {
		t.Fatalf("flash without a tool: %q", m.Flash)
	}
}

func TestCopyRunsNoToolInUpdate(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "ran")
	if err := os.WriteFile(filepath.Join(dir, "wl-copy"), []byte("#!/bin/sh\n/bin/cat > "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	m := newModel(Options{Log: tuitest.Recorded(t, fixtures.Echo)}, 160, 48)
	if _, cmd := press(t, m, "y"); cmd == nil {
		t.Fatal("y returns no command")
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("the clipboard tool ran inside Update")
	}
}

func TestExportAsksWhereAndSaysWhere(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		dir := t.TempDir()
		var gotFormat, gotPath string
		opts := Options{Log: tuitest.Recorded(t, fixtures.Echo),
			Export: func(f, p string) (string, error) {
				gotFormat, gotPath = f, p
				return p, nil
			},
			ExportPath: func(f string) string { return filepath.Join(dir, "default."+f) }}
		m := newModel(opts, 80, 24)
		m, _ = press(t, m, "e", "j")
		// The default is shown (cut at its start to fit); enter below
		// writes there.
		if line := lineWith(screen(m), "export json to:"); !strings.Contains(line, "default.json") {
			t.Fatalf("the prompt does not show the default:\n%s", screen(m))
		}
		// Keep the default: enter writes there and the footer names it.
		m2, cmd := press(t, m, "enter")
		m2 = runCmd(t, m2, cmd)
		if gotFormat != "json" || gotPath != filepath.Join(dir, "default.json") || !strings.Contains(m2.Flash, "exported to "+gotPath) {
			t.Fatalf("export %q %q, flash %q", gotFormat, gotPath, m2.Flash)
		}
		// Edit it: ctrl+u clears, a pasted path is taken.
		m, _ = press(t, m, "e", "j", "ctrl+u")
		_ = m.Update(tea.PasteMsg{Content: "/srv/out.json"})
		m, cmd = press(t, m, "enter")
		m = runCmd(t, m, cmd)
		if gotPath != "/srv/out.json" || !strings.Contains(m.Flash, "/srv/out.json") {
			t.Fatalf("typed path: %q, flash %q", gotPath, m.Flash)
		}
		// esc cancels without writing.
		gotPath = ""
		m, _ = press(t, m, "e", "m", "esc")
		if s := screen(m); strings.Contains(s, "export markdown to:") || gotPath != "" {
			t.Fatalf("esc: wrote %q\n%s", gotPath, s)
		}
	})
}
