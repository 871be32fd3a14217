package theme

import (
	"fmt"
	"image/color"
	"reflect"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"
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
	dark, light := New(true, colorprofile.TrueColor), New(false, colorprofile.TrueColor)
	if dark.NoColor || light.NoColor {
		t.Fatal("colour styles say NoColor")
	}
	if dark.Text.GetForeground() == light.Text.GetForeground() {
		t.Error("light and dark text colours are the same")
	}
	if !New(true, colorprofile.ASCII).NoColor || !New(true, colorprofile.NoTTY).NoColor {
		t.Error("ASCII or NoTTY give colour styles")
	}
}

func TestStatusColours(t *testing.T) {
	s := New(true, colorprofile.TrueColor)
	if s.Status("error").GetForeground() != s.Error.GetForeground() ||
		s.Status("finished").GetForeground() != s.OK.GetForeground() ||
		s.Status("waiting_for_confirmation").GetForeground() != s.Warn.GetForeground() ||
		s.Status("running").GetForeground() != s.Info.GetForeground() {
		t.Error("statuses are not coloured by meaning")
	}
}

// oneCell says why glyph does not take exactly one terminal cell, "" when
// it does: measured in cells (as lipgloss lays the screen out), not runes,
// so a one-rune emoji (two cells) fails and a letter with a combining
// accent (two runes, one cell) passes.
func oneCell(glyph string) string {
	if strings.TrimSpace(glyph) == "" {
		return "blank"
	}
	if w := ansi.StringWidth(glyph); w != 1 {
		return fmt.Sprintf("%d cells", w)
	}
	if w := uniseg.StringWidth(glyph); w != 1 {
		return fmt.Sprintf("%d cells by uniseg", w)
	}
	return ""
}

// TestGlyphsAreSingleCells: every glyph the panes line up by (all but the
// separator between header fields, which is padded text) takes one cell,
// including glyphs added later.
func TestGlyphsAreSingleCells(t *testing.T) {
	for glyph, wide := range map[string]bool{"✅": true, "⚙️": true, "字": true, "ab": true, " ": true, "é": false, "e\u0301": false, "▶": false} {
		if got := oneCell(glyph) != ""; got != wide {
			t.Fatalf("oneCell(%q) refuses: %v, want %v", glyph, got, wide)
		}
	}
	g := reflect.ValueOf(DefaultGlyphs())
	for i := range g.NumField() {
		name := g.Type().Field(i).Name
		if name == "Separator" {
			continue
		}
		if why := oneCell(g.Field(i).String()); why != "" {
			t.Errorf("glyph %s %q is not one cell: %s", name, g.Field(i).String(), why)
		}
	}
}

func TestModeDefaultsToDark(t *testing.T) {
	for _, c := range []struct {
		in               string
		known, dark, out bool
	}{
		{"", false, false, true}, // no answer (tmux 3.3): dark
		{"auto", true, false, false},
		{"auto", true, true, true},
		{"dark", true, false, true},
		{"light", true, true, false},
		{"Light", false, false, false},
	} {
		m, err := ParseMode(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Dark(c.known, c.dark); got != c.out {
			t.Errorf("%q (answered %v, dark %v): dark %v", c.in, c.known, c.dark, got)
		}
	}
	if _, err := ParseMode("pink"); err == nil {
		t.Error("pink is a theme")
	}
}

// TestNoColorKeepsAttributes: NO_COLOR (the ASCII profile) takes colour
// away, not bold, reverse video, underline or dim.
func TestNoColorKeepsAttributes(t *testing.T) {
	s := New(true, colorprofile.ASCII)
	for name, ok := range map[string]bool{
		"bold titles":        s.Title.GetBold(),
		"bold errors":        s.Error.GetBold(),
		"bold keys":          s.Key.GetBold(),
		"reverse selection":  s.Selected.GetReverse(),
		"dim secondary text": s.Muted.GetFaint(),
		"underlined hunks":   s.DiffHunk.GetUnderline(),
	} {
		if !ok {
			t.Errorf("NO_COLOR lost %s", name)
		}
	}
	for name, st := range map[string]interface{ GetForeground() color.Color }{
		"text": s.Text, "error": s.Error, "selected": s.Selected, "muted": s.Muted,
	} {
		if _, none := st.GetForeground().(lipgloss.NoColor); !none {
			t.Errorf("NO_COLOR keeps a colour on %s: %v", name, st.GetForeground())
		}
	}
}
