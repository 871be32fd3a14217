package theme

import (
	"strings"
	"testing"
)

func TestPlainStylesRenderTextUnchanged(t *testing.T) {
	s := Plain()
	for name, st := range map[string]interface{ Render(...string) string }{
		"Text": s.Text, "Error": s.Error, "Selected": s.Selected, "Title": s.Title, "Key": s.Key,
		"status": s.Status("error"), "source": s.Source("user"), "risk": s.Risk("HIGH"),
	} {
		if got := st.Render("abc"); got != "abc" {
			t.Errorf("%s: Plain renders %q", name, got)
		}
	}
	if !s.NoColor {
		t.Error("Plain does not say NoColor")
	}
}

func TestPalettesDiffer(t *testing.T) {
	dark, light := New(true, false), New(false, false)
	if dark.NoColor || light.NoColor {
		t.Fatal("colour styles say NoColor")
	}
	if dark.Text.GetForeground() == light.Text.GetForeground() {
		t.Error("light and dark text colours are the same")
	}
	if !New(true, true).NoColor {
		t.Error("noColor does not give the plain styles")
	}
}

func TestStatusColours(t *testing.T) {
	s := New(true, false)
	if s.Status("error").GetForeground() != s.Error.GetForeground() ||
		s.Status("finished").GetForeground() != s.OK.GetForeground() ||
		s.Status("waiting_for_confirmation").GetForeground() != s.Warn.GetForeground() ||
		s.Status("running").GetForeground() != s.Info.GetForeground() {
		t.Error("statuses are not coloured by meaning")
	}
}

func TestGlyphsAreSingleCells(t *testing.T) {
	g := DefaultGlyphs()
	for _, glyph := range []string{g.Cursor, g.Error, g.Paired, g.Live, g.Pinned, g.TaskTodo, g.TaskDoing,
		g.TaskDone, g.VRule, g.HRule, g.ScrubEmpty, g.ScrubFill, g.ScrubHead, g.MarkError, g.MarkStatus,
		g.MarkUser, g.MarkBook} {
		if strings.TrimSpace(glyph) == "" || len([]rune(glyph)) != 1 {
			t.Errorf("glyph %q is not one rune", glyph)
		}
	}
}
