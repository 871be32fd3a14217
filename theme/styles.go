package theme

import (
	"charm.land/lipgloss/v2"
)

// Styles is everything the TUI draws with. It is built once from a Palette
// (or with no colours at all) and passed down by value; panes never create
// their own colours.
type Styles struct {
	// NoColor is true when the styles carry no colour and no attributes,
	// which makes the screen plain text (NO_COLOR, goldens).
	NoColor bool
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

// New builds the styles for a dark or light background; noColor gives the
// plain styles of Plain instead.
func New(dark, noColor bool) Styles {
	if noColor {
		return Plain()
	}
	p := Light()
	if dark {
		p = Dark()
	}
	return FromPalette(p)
}

// FromPalette builds the styles from a palette.
func FromPalette(p Palette) Styles {
	s := lipgloss.NewStyle
	return Styles{
		Glyphs:     DefaultGlyphs(),
		Text:       s().Foreground(p.Text),
		Muted:      s().Foreground(p.Muted),
		Subtle:     s().Foreground(p.Subtle),
		Accent:     s().Foreground(p.Accent),
		Bold:       s().Bold(true),
		Title:      s().Foreground(p.Text).Bold(true),
		PaneTitle:  s().Foreground(p.Muted).Bold(true),
		PaneFocus:  s().Foreground(p.Accent).Bold(true),
		Selected:   s().Background(p.Selection).Bold(true),
		OK:         s().Foreground(p.OK),
		Info:       s().Foreground(p.Info),
		Warn:       s().Foreground(p.Warn),
		Error:      s().Foreground(p.Error).Bold(true),
		Live:       s().Foreground(p.OK).Bold(true),
		Pinned:     s().Foreground(p.Warn).Bold(true),
		Key:        s().Foreground(p.Accent).Bold(true),
		KeyDesc:    s().Foreground(p.Muted),
		Prompt:     s().Foreground(p.Accent),
		SourceUser: s().Foreground(p.User),
		SourceAgt:  s().Foreground(p.Agent),
		SourceEnv:  s().Foreground(p.Env),
		DiffAdd:    s().Foreground(p.OK),
		DiffDel:    s().Foreground(p.Error),
		DiffHunk:   s().Foreground(p.Info),
		JSONKey:    s().Foreground(p.Agent),
		JSONString: s().Foreground(p.OK),
		JSONNumber: s().Foreground(p.Warn),
		JSONPunct:  s().Foreground(p.Muted),
	}
}

// Plain returns styles with no colour and no attributes: every style renders
// its text unchanged, so the screen is plain text. Meaning that colour would
// carry is carried by glyphs instead (the cursor marker, ✗ on errors).
func Plain() Styles {
	n := lipgloss.NewStyle()
	return Styles{
		NoColor: true, Glyphs: DefaultGlyphs(),
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
