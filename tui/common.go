package tui

import (
	"os"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/theme"
)

// Common is what a screen hands on, whole, to every screen it opens: how
// it draws (palette, colour profile, NO_COLOR as the caller read it), its
// keys, and the programs and files it hands work to. The caller fills it
// once, from its flags and environment (nothing under tui reads the
// environment); a view opened from another one (a fork, a linked
// conversation) then draws and answers exactly as the one it came from,
// without each screen copying settings field by field.
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
}
