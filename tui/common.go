package tui

import (
	"os"
	"time"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/theme"
	"ohwatch/tui/text"
)

// Common is the context every screen and component holds, and hands on,
// whole, to every screen it opens: how it draws (palette, colour profile,
// NO_COLOR as the caller read it), how it measures text (the terminal's
// width model), its keys, its clock, and the programs and files it hands
// work to. The caller fills it once, from its flags and environment
// (nothing under tui reads the environment); a view opened from another
// one (a fork, a linked conversation) then draws, measures and answers
// exactly as the one it came from, without each screen copying settings
// field by field.
type Common struct {
	// KeyMap is the conversation view's bindings (rebound or default).
	KeyMap KeyMap
	// NoColor draws without any colour or attribute (NO_COLOR).
	NoColor bool
	// Theme picks the palette; Profile is the terminal's colour profile.
	Theme   theme.Mode
	Profile colorprofile.Profile
	// Pager and Editor are the commands that page an event and edit a
	// changed file; Notify rings the bell when a live run needs the user.
	Pager, Editor string
	Notify        bool
	// OpenFile opens a regular file for the editor (nil: the view cannot
	// check, and opens none).
	OpenFile func(path string) (*os.File, error)
	// Cells is the terminal's width model: wcwidth until the terminal
	// reports mode 2027, then grapheme clusters. The router tells every
	// screen (Measured) and each keeps it here; the panes a screen draws
	// measure with it.
	Cells text.Cells
	// Now is the clock of what the screens say about time (an age, a
	// countdown); nil means time.Now. A test sets it to move time on
	// without sleeping.
	Now func() time.Time
}

// Clock is the time now by c's clock.
func (c Common) Clock() time.Time {
	if c.Now == nil {
		return time.Now()
	}
	return c.Now()
}
