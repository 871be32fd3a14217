package theme

import (
	"fmt"
	"image/color"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Color is one palette colour spelled for every colour profile. The
// terminal's automatic down-sampling picks the nearest colour by distance,
// which turns a muted red into grey (#C8283C becomes 241 on 256 colours and
// 8 on 16), so each profile gets a value chosen for its meaning instead.
type Color struct {
	// Hex is the truecolor value ("#RRGGBB").
	Hex string
	// X256 is the xterm 256-colour index used on 256-colour terminals.
	X256 uint8
	// X16 is the ANSI colour (0-15) used on 16-colour terminals: the
	// terminal's own palette, which follows the user's theme. TermDefault
	// leaves the terminal's default foreground or background.
	X16 int
}

// TermDefault is the X16 value that leaves the terminal's own default
// colour in place (ordinary text on a 16-colour terminal).
const TermDefault = -1

// For returns the colour to draw with under profile p; nil means "no
// colour" (NO_COLOR, a pipe, or the terminal's default).
func (c Color) For(p colorprofile.Profile) color.Color {
	switch p {
	case colorprofile.TrueColor:
		return hexColor(c.Hex)
	case colorprofile.ANSI256:
		return ansi.IndexedColor(c.X256)
	case colorprofile.ANSI:
		if c.X16 < 0 || c.X16 > 15 {
			return nil
		}
		return ansi.BasicColor(c.X16)
	}
	return nil
}

// RGB returns the truecolor value's channels; it panics on a malformed
// palette entry, which the tests catch.
func (c Color) RGB() (r, g, b uint8) {
	if _, err := fmt.Sscanf(c.Hex, "#%02x%02x%02x", &r, &g, &b); err != nil {
		panic("theme: bad colour " + c.Hex)
	}
	return r, g, b
}

// hexColor parses "#RRGGBB".
func hexColor(h string) color.Color {
	c := Color{Hex: h}
	r, g, b := c.RGB()
	return color.RGBA{R: r, G: g, B: b, A: 0xff}
}
