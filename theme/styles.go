package theme

import (
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
)

// Styles is everything the TUI draws with. It is built once from a Palette
// (or with no colours at all) and passed down by value; panes never create
// their own colours.
type Styles struct {
	// NoColor is true when the styles carry no colour: NO_COLOR's (which
	// keeps bold, reverse video, underline and dim) and plain text's (no
	// attributes either: a terminal that is not one, the goldens).
	NoColor bool
	// Profile is the colour profile the styles were built for.
	Profile colorprofile.Profile
	Glyphs  Glyphs

	Text       lipgloss.Style
	Muted      lipgloss.Style
	Subtle     lipgloss.Style
	Accent     lipgloss.Style
	Bold       lipgloss.Style
	Title      lipgloss.Style // the conversation title in the header
	PaneTitle  lipgloss.Style
	PaneFocus  lipgloss.Style // the title of the focused pane
	Selected   lipgloss.Style // the selected row
	OK         lipgloss.Style
	Info       lipgloss.Style
	Warn       lipgloss.Style
	Error      lipgloss.Style
	Live       lipgloss.Style // the LIVE badge
	Pinned     lipgloss.Style // the pinned badge
	Key        lipgloss.Style // a key in the footer and help
	KeyDesc    lipgloss.Style // its description
	Prompt     lipgloss.Style // the input line
	SourceUser lipgloss.Style
	SourceAgt  lipgloss.Style
	SourceEnv  lipgloss.Style
	DiffAdd    lipgloss.Style
	DiffDel    lipgloss.Style
	DiffHunk   lipgloss.Style
	JSONKey    lipgloss.Style
	JSONString lipgloss.Style
	JSONNumber lipgloss.Style
	JSONPunct  lipgloss.Style
}

// New builds the styles for a dark or light background under a colour
// profile. Every colour is the palette's value for that profile, so the
// renderer never has to down-sample (which would turn signals grey). ASCII
// (NO_COLOR) gives Mono's attributes without colour, NoTTY the plain text
// of Plain; Unknown is taken as truecolor.
func New(dark bool, profile colorprofile.Profile) Styles {
	switch profile {
	case colorprofile.ASCII:
		return Mono()
	case colorprofile.NoTTY:
		return Plain()
	case colorprofile.Unknown:
		profile = colorprofile.TrueColor
	}
	p := Light()
	if dark {
		p = Dark()
	}
	return FromPalette(p, profile)
}

// FromPalette builds the styles from a palette under a colour profile.
func FromPalette(p Palette, profile colorprofile.Profile) Styles {
	s := lipgloss.NewStyle
	fg := func(c Color) lipgloss.Style {
		if col := c.For(profile); col != nil {
			return s().Foreground(col)
		}
		return s()
	}
	selected := s().Background(p.Selection.For(profile)).Foreground(p.OnSelection.For(profile)).Bold(true)
	if profile < colorprofile.ANSI256 {
		// The 16 colours have no background that is sure to differ from
		// the terminal's yet keep its text readable: reverse video does.
		selected = s().Reverse(true).Bold(true)
	}
	return Styles{
		Profile:    profile,
		Glyphs:     DefaultGlyphs(),
		Text:       fg(p.Text),
		Muted:      fg(p.Muted),
		Subtle:     fg(p.Subtle),
		Accent:     fg(p.Accent),
		Bold:       s().Bold(true),
		Title:      fg(p.Text).Bold(true),
		PaneTitle:  fg(p.Muted).Bold(true),
		PaneFocus:  fg(p.Accent).Bold(true),
		Selected:   selected,
		OK:         fg(p.OK),
		Info:       fg(p.Info),
		Warn:       fg(p.Warn),
		Error:      fg(p.Error).Bold(true),
		Live:       fg(p.OK).Bold(true),
		Pinned:     fg(p.Warn).Bold(true),
		Key:        fg(p.Accent).Bold(true),
		KeyDesc:    fg(p.Muted),
		Prompt:     fg(p.Accent),
		SourceUser: fg(p.User),
		SourceAgt:  fg(p.Agent),
		SourceEnv:  fg(p.Env),
		DiffAdd:    fg(p.OK),
		DiffDel:    fg(p.Error),
		DiffHunk:   fg(p.Info),
		JSONKey:    fg(p.Agent),
		JSONString: fg(p.OK),
		JSONNumber: fg(p.Warn),
		JSONPunct:  fg(p.Muted),
	}
}

// Mono returns the styles of NO_COLOR: the standard asks only that colour
// go, so titles, keys and errors stay bold, the selected row in reverse
// video, secondary text and rules dim, diff hunks underlined.
func Mono() Styles {
	n := lipgloss.NewStyle()
	bold, dim := n.Bold(true), n.Faint(true)
	return Styles{
		NoColor: true, Profile: colorprofile.ASCII, Glyphs: DefaultGlyphs(),
		Text: n, Muted: dim, Subtle: dim, Accent: n, Bold: bold, Title: bold, PaneTitle: bold, PaneFocus: bold,
		Selected: n.Reverse(true).Bold(true), OK: n, Info: n, Warn: n, Error: bold, Live: bold, Pinned: bold,
		Key: bold, KeyDesc: n, Prompt: n, SourceUser: n, SourceAgt: n, SourceEnv: n, DiffAdd: n, DiffDel: n,
		DiffHunk: n.Underline(true), JSONKey: n, JSONString: n, JSONNumber: n, JSONPunct: n,
	}
}

// Plain returns styles with no colour and no attributes: every style renders
// its text unchanged, so the screen is plain text. Meaning that colour would
// carry is carried by glyphs instead (the cursor marker, ✗ on errors).
func Plain() Styles {
	n := lipgloss.NewStyle()
	return Styles{
		NoColor: true, Profile: colorprofile.NoTTY, Glyphs: DefaultGlyphs(),
		Text: n, Muted: n, Subtle: n, Accent: n, Bold: n, Title: n, PaneTitle: n, PaneFocus: n,
		Selected: n, OK: n, Info: n, Warn: n, Error: n, Live: n, Pinned: n, Key: n, KeyDesc: n,
		Prompt: n, SourceUser: n, SourceAgt: n, SourceEnv: n, DiffAdd: n, DiffDel: n, DiffHunk: n,
		JSONKey: n, JSONString: n, JSONNumber: n, JSONPunct: n,
	}
}

// Status returns the style of an execution status: green when finished, red
// on error, yellow while waiting or stuck, cyan while running.
func (s Styles) Status(status string) lipgloss.Style {
	switch status {
	case "finished":
		return s.OK
	case "error":
		return s.Error
	case "stuck", "waiting_for_confirmation":
		return s.Warn
	case "running":
		return s.Info
	}
	return s.Muted
}

// StatusOf is Status for a status that may be provisional: a "finished"
// the server has not confirmed yet is yellow, like the other states that
// still wait for something, so it never passes for the green of a
// confirmed finish.
func (s Styles) StatusOf(status string, confirmed bool) lipgloss.Style {
	if status == "finished" && !confirmed {
		return s.Warn
	}
	return s.Status(status)
}

// Source returns the style of an event source.
func (s Styles) Source(source string) lipgloss.Style {
	switch source {
	case "user":
		return s.SourceUser
	case "agent":
		return s.SourceAgt
	}
	return s.SourceEnv
}

// Risk returns the style of a security risk level.
func (s Styles) Risk(risk string) lipgloss.Style {
	switch risk {
	case "HIGH":
		return s.Error
	case "MEDIUM":
		return s.Warn
	case "LOW":
		return s.OK
	}
	return s.Muted
}
