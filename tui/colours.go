package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/theme"
)

// Colours is what decides a screen's styles: the user's theme choice, the
// terminal's colour profile, and its answer to the background query (if
// any came). Every pane draws with styles built from it, so a change of
// profile or background restyles the whole screen at once.
type Colours struct {
	Mode    theme.Mode
	profile colorprofile.Profile
	// noColor pins the profile to ASCII (NO_COLOR): the terminal's later
	// profile report does not bring colour back.
	noColor         bool
	BgKnown, BgDark bool
}

// NewColours starts from the caller's choices. An unknown profile is
// taken as truecolor until the program reports the terminal's. NO_COLOR
// draws with attributes and no colour (ASCII), unless there is no
// terminal to draw them (NoTTY: plain text).
func NewColours(mode theme.Mode, profile colorprofile.Profile, noColor bool) Colours {
	if noColor && profile != colorprofile.NoTTY {
		profile = colorprofile.ASCII
	}
	return Colours{Mode: mode, profile: profile, noColor: noColor}
}

// Styles builds the styles for the current profile and background.
func (c Colours) Styles() theme.Styles {
	return theme.New(c.Mode.Dark(c.BgKnown, c.BgDark), c.profile)
}

// Init asks the terminal for its background colour when the palette
// depends on it (auto, with colour).
func (c Colours) Init() tea.Cmd {
	if c.Mode != theme.Auto || c.noColor {
		return nil
	}
	return tea.RequestBackgroundColor
}

// Update takes the terminal's reports of its background and profile; it
// reports whether the styles changed.
func (c *Colours) Update(msg tea.Msg) bool {
	before := *c
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		c.BgKnown, c.BgDark = true, msg.IsDark()
	case tea.ColorProfileMsg:
		if !c.noColor {
			c.profile = msg.Profile
		}
	default:
		return false
	}
	return c.Styles().Profile != before.Styles().Profile ||
		c.Mode.Dark(c.BgKnown, c.BgDark) != before.Mode.Dark(before.BgKnown, before.BgDark)
}

// ProgramColours returns the program option that makes the renderer agree
// with the styles about the caller's profile, which the caller detected
// from its environment (nothing under tui reads the environment). An
// Unknown profile adds none: the program finds the terminal's and reports
// it (tea.ColorProfileMsg), and Colours.Update restyles.
func ProgramColours(profile *colorprofile.Profile) []tea.ProgramOption {
	if *profile == colorprofile.Unknown {
		return nil
	}
	return []tea.ProgramOption{tea.WithColorProfile(*profile)}
}
