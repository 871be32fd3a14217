package theme

import (
	"fmt"
	"math"
	"testing"
)

// xterm256 is the RGB of an xterm 256-colour index (16-255).
func xterm256(i uint8) (r, g, b uint8) {
	if i >= 232 {
		v := 8 + 10*(i-232)
		return v, v, v
	}
	levels := [6]uint8{0, 95, 135, 175, 215, 255}
	i -= 16
	return levels[i/36], levels[i/6%6], levels[i%6]
}

// luminance is the WCAG relative luminance of an sRGB colour.
func luminance(r, g, b uint8) float64 {
	lin := func(c uint8) float64 {
		v := float64(c) / 255
		if v <= 0.03928 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is the WCAG contrast ratio of two luminances.
func contrast(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	return (a + 0.05) / (b + 0.05)
}

// TestContrast checks every palette, in truecolor and in its 256-colour
// values, against the backgrounds it is meant for (black, the common dark
// theme greys; white and off-white): text and the selected row at least
// 4.5:1 (WCAG AA), muted text and the signal colours at least 3:1.
func TestContrast(t *testing.T) {
	palettes := []struct {
		name string
		p    Palette
		bgs  []string
	}{
		{"dark", Dark(), []string{"#000000", "#1E1E1E", "#282C34"}},
		{"light", Light(), []string{"#FFFFFF", "#FAFAFA"}},
	}
	type lum func(Color) float64
	spellings := map[string]lum{
		"truecolor": func(c Color) float64 { return luminance(c.RGB()) },
		"256":       func(c Color) float64 { return luminance(xterm256(c.X256)) },
	}
	for _, pal := range palettes {
		p := pal.p
		for spelling, l := range spellings {
			check := func(what string, fg, bg float64, least float64) {
				if got := contrast(fg, bg); got < least {
					t.Errorf("%s %s: %s has contrast %.2f, want ≥ %.1f", pal.name, spelling, what, got, least)
				}
			}
			for _, hex := range pal.bgs {
				bg := luminance(Color{Hex: hex}.RGB())
				on := func(name string) string { return fmt.Sprintf("%s on %s", name, hex) }
				check(on("text"), l(p.Text), bg, 4.5)
				check(on("muted"), l(p.Muted), bg, 3)
				for name, c := range map[string]Color{"OK": p.OK, "Info": p.Info, "Warn": p.Warn, "Error": p.Error,
					"Accent": p.Accent, "User": p.User, "Env": p.Env} {
					check(on(name), l(c), bg, 3)
				}
			}
			check("text on the selected row", l(p.OnSelection), l(p.Selection), 4.5)
		}
	}
}

// TestSignalHues: the 16-colour value of every signal is the ANSI colour
// of its meaning, in both palettes.
func TestSignalHues(t *testing.T) {
	for name, p := range map[string]Palette{"dark": Dark(), "light": Light()} {
		for what, c := range map[string]struct {
			got  int
			want []int
		}{
			"error": {p.Error.X16, []int{ansiRed, ansiRed + 8}},
			"ok":    {p.OK.X16, []int{ansiGreen, ansiGreen + 8}},
			"warn":  {p.Warn.X16, []int{ansiYellow, ansiYellow + 8}},
			"info":  {p.Info.X16, []int{ansiCyan, ansiCyan + 8, ansiBlue, ansiBlue + 8}},
		} {
			ok := false
			for _, w := range c.want {
				ok = ok || c.got == w
			}
			if !ok {
				t.Errorf("%s %s: ANSI %d, want one of %v", name, what, c.got, c.want)
			}
		}
	}
}

// TestFramesAreSeen: the rules between panes and, in the light palette,
// the selected row stand out from every background they are meant for by
// the 3:1 that secondary text holds (WCAG's rule for the parts of a
// screen that are not text). The dark palette's selection is a tint, not
// a frame: its reverse video in 16 colours and its bold text carry it.
func TestFramesAreSeen(t *testing.T) {
	for _, pal := range []struct {
		name      string
		p         Palette
		bgs       []string
		selection bool
	}{
		{"dark", Dark(), []string{"#000000", "#1E1E1E", "#282C34"}, false},
		{"light", Light(), []string{"#FFFFFF", "#FAFAFA"}, true},
	} {
		for _, hex := range pal.bgs {
			bg := luminance(Color{Hex: hex}.RGB())
			for spelling, l := range map[string]func(Color) float64{
				"truecolor": func(c Color) float64 { return luminance(c.RGB()) },
				"256":       func(c Color) float64 { return luminance(xterm256(c.X256)) },
			} {
				if got := contrast(l(pal.p.Subtle), bg); got < 3 {
					t.Errorf("%s %s: rules on %s have contrast %.2f, want ≥ 3", pal.name, spelling, hex, got)
				}
				if got := contrast(l(pal.p.Selection), bg); pal.selection && got < 3 {
					t.Errorf("%s %s: the selected row on %s has contrast %.2f, want ≥ 3", pal.name, spelling, hex, got)
				}
			}
		}
	}
}
