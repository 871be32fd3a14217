package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"ohwatch/format"
)

// The TUI's numbers, costs, durations and statuses are printed by the
// format package, shared with every other surface; what stays here is only
// what the screen alone shows.

// FormatSpeed prints a replay speed: "0.25x", "1x", "64x".
func FormatSpeed(s float64) string {
	return strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(s, 'f', 2, 64), "0"), ".") + "x"
}

// Ordinal prints an event index as the 1-based number the user sees.
func Ordinal(index int) string {
	return format.Event(index)
}

// TimeMode is how the event list prints each event's time.
type TimeMode int

const (
	TimeRelative TimeMode = iota // since the conversation's start: "+1:02:03"
	TimeAbsolute                 // the time of day, UTC: "14:03:00"
	TimeGap                      // since the event before it: "+3.0s"
	TimeModeCount
)

// String names the mode for the list's title.
func (t TimeMode) String() string {
	return [...]string{"relative", "absolute", "gap"}[t]
}

// OffsetText prints t relative to start. Past a day, and with room for
// it (wide), it reads "+4d07h12m" rather than the list's narrow "+4d07h"
// or "+27:03:05".
func OffsetText(t, start time.Time, wide bool) string {
	if wide && !t.IsZero() && !start.IsZero() {
		d := t.Sub(start)
		sign := "+"
		if d < 0 {
			sign, d = "-", -d
		}
		if d >= 24*time.Hour && d < 365*24*time.Hour {
			return sign + format.Duration(d)
		}
	}
	return format.Offset(t, start)
}

// GapText prints the time since the event before ("+3.0s"), "--" when
// either time is unknown; a negative gap (clocks that disagree) keeps its
// sign.
func GapText(t, prev time.Time) string {
	if t.IsZero() || prev.IsZero() {
		return "--"
	}
	d := t.Sub(prev)
	if d < 0 {
		return format.Duration(d)
	}
	return "+" + format.Duration(d)
}

// maxViewLines caps a rendered text block (a huge command output or system
// prompt); the raw view and the pager have the rest.
const maxViewLines = 2000

// CapLines keeps the first maxViewLines lines and says how many were cut.
func CapLines(lines []string) []string {
	if len(lines) <= maxViewLines {
		return lines
	}
	cut := len(lines) - maxViewLines
	return append(lines[:maxViewLines:maxViewLines], fmt.Sprintf("… %d more lines (r: raw JSON, o: pager)", cut))
}

// ExpandTabs replaces tabs with spaces, since a tab's width depends on the
// column it lands in and would break the pane's width arithmetic.
func ExpandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	return strings.ReplaceAll(s, "\t", "    ")
}

// WithNewline ends non-empty text with a newline.
func WithNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}
