// Package theme turns a small semantic palette into the one Styles struct the
// TUI draws with, so no pane picks its own colours and the whole screen
// follows the terminal's light or dark background, or NO_COLOR.
package theme

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Palette names colours by what they mean, not by what they look like: a
// pane asks for "error" or "muted", and the palette decides the hue that
// reads well on the terminal's background.
type Palette struct {
	Text      color.Color // ordinary text
	Muted     color.Color // secondary text: times, indices, hints
	Subtle    color.Color // rules and separators
	Accent    color.Color // titles, the focused pane, keys in help
	Selection color.Color // background of the selected row
	OK        color.Color // finished, success, additions
	Info      color.Color // running, live
	Warn      color.Color // waiting, stuck, pinned, medium risk
	Error     color.Color // errors, high risk, deletions
	User      color.Color // user-sourced events
	Agent     color.Color // agent-sourced events
	Env       color.Color // environment- and hook-sourced events
}

// Dark is the palette for terminals with a dark background.
func Dark() Palette {
	return Palette{
		Text:      lipgloss.Color("#D7DAE0"),
		Muted:     lipgloss.Color("#7F848E"),
		Subtle:    lipgloss.Color("#4B5263"),
		Accent:    lipgloss.Color("#61AFEF"),
		Selection: lipgloss.Color("#2C3340"),
		OK:        lipgloss.Color("#98C379"),
		Info:      lipgloss.Color("#56B6C2"),
		Warn:      lipgloss.Color("#E5C07B"),
		Error:     lipgloss.Color("#E06C75"),
		User:      lipgloss.Color("#C678DD"),
		Agent:     lipgloss.Color("#61AFEF"),
		Env:       lipgloss.Color("#ABB2BF"),
	}
}

// Light is the palette for terminals with a light background.
func Light() Palette {
	return Palette{
		Text:      lipgloss.Color("#383A42"),
		Muted:     lipgloss.Color("#80838F"),
		Subtle:    lipgloss.Color("#C8CAD0"),
		Accent:    lipgloss.Color("#2F6FD0"),
		Selection: lipgloss.Color("#E3E8F2"),
		OK:        lipgloss.Color("#3E8A2E"),
		Info:      lipgloss.Color("#0E7C86"),
		Warn:      lipgloss.Color("#9A6700"),
		Error:     lipgloss.Color("#C8283C"),
		User:      lipgloss.Color("#A626A4"),
		Agent:     lipgloss.Color("#2F6FD0"),
		Env:       lipgloss.Color("#5C6370"),
	}
}
