package tui

import (
	"strconv"
	"strings"
)

// The TUI's numbers, costs, durations and statuses are printed by the
// format package, shared with every other surface; what stays here is only
// what the screen alone shows.

// formatSpeed prints a replay speed: "0.25x", "1x", "64x".
func formatSpeed(s float64) string {
	return strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(s, 'f', 2, 64), "0"), ".") + "x"
}

// ordinal prints an event index as the 1-based number the user sees.
func ordinal(index int) string {
	return "#" + strconv.Itoa(index+1)
}
