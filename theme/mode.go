package theme

import (
	"fmt"
	"strings"
)

// Mode is how the palette is chosen: from the terminal's answer to the
// background-colour query, or fixed by the user.
type Mode int

const (
	// Auto asks the terminal and uses the dark palette until (and unless)
	// it answers: tmux 3.3 never does, and light text is unreadable on the
	// dark background most terminals have, while dark text on light is
	// merely dim.
	Auto Mode = iota
	// DarkMode always uses the dark palette.
	DarkMode
	// LightMode always uses the light palette.
	LightMode
)

// ParseMode reads "auto", "dark" or "light" (any case; empty is auto).
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return Auto, nil
	case "dark":
		return DarkMode, nil
	case "light":
		return LightMode, nil
	}
	return Auto, fmt.Errorf("unknown theme %q (want dark, light or auto)", s)
}

// String is the mode's name as ParseMode reads it.
func (m Mode) String() string {
	switch m {
	case DarkMode:
		return "dark"
	case LightMode:
		return "light"
	}
	return "auto"
}

// Dark reports whether the dark palette applies, given what the terminal
// said about its background (known false: it has not answered).
func (m Mode) Dark(known, dark bool) bool {
	switch m {
	case DarkMode:
		return true
	case LightMode:
		return false
	}
	return !known || dark
}
