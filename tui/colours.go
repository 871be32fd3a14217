package tui

import (
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/theme"
)

// colours is what decides a screen's styles: the user's theme choice, the
// terminal's colour profile, and its answer to the background query (if
// any came). Every pane draws with styles built from it, so a change of
// profile or background restyles the whole screen at once.
type colours struct {
	mode    theme.Mode
	profile colorprofile.Profile
	// noColor pins the profile to ASCII (NO_COLOR): the terminal's later
	// profile report does not bring colour back.
	noColor         bool
	bgKnown, bgDark bool
}

// newColours starts from the caller's choices. An unknown profile is
// taken as truecolor until the program reports the terminal's. NO_COLOR
// draws with attributes and no colour (ASCII), unless there is no
// terminal to draw them (NoTTY: plain text).
func newColours(mode theme.Mode, profile colorprofile.Profile, noColor bool) colours {
	if noColor && profile != colorprofile.NoTTY {
		profile = colorprofile.ASCII
	}
	return colours{mode: mode, profile: profile, noColor: noColor}
}

// styles builds the styles for the current profile and background.
func (c colours) styles() theme.Styles {
	return theme.New(c.mode.Dark(c.bgKnown, c.bgDark), c.profile)
}

// init asks the terminal for its background colour when the palette
// depends on it (auto, with colour).
func (c colours) init() tea.Cmd {
	if c.mode != theme.Auto || c.noColor {
		return nil
	}
	return tea.RequestBackgroundColor
}

// update takes the terminal's reports of its background and profile; it
// reports whether the styles changed.
func (c *colours) update(msg tea.Msg) bool {
	before := *c
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		c.bgKnown, c.bgDark = true, msg.IsDark()
	case tea.ColorProfileMsg:
		if !c.noColor {
			c.profile = msg.Profile
		}
	default:
		return false
	}
	return c.styles().Profile != before.styles().Profile ||
		c.mode.Dark(c.bgKnown, c.bgDark) != before.mode.Dark(before.bgKnown, before.bgDark)
}

// programColours fills in the profile of the terminal on stdout when the
// caller gave none, and returns the program option that makes the renderer
// agree with the styles about it.
func programColours(profile *colorprofile.Profile) []tea.ProgramOption {
	if *profile == colorprofile.Unknown {
		*profile = colorprofile.Detect(os.Stdout, os.Environ())
	}
	return []tea.ProgramOption{tea.WithColorProfile(*profile)}
}
