package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// formatDuration prints a duration compactly and stably: "850ms", "12.3s",
// "4m05s", "2h03m".
func formatDuration(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	switch {
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// formatClock prints a time of day in UTC, so the screen does not depend on
// the local zone of the machine that shows it.
func formatClock(t time.Time) string {
	if t.IsZero() {
		return "--:--:--"
	}
	return t.UTC().Format("15:04:05")
}

// formatOffset prints a time relative to the conversation's start, fixed
// width for rows: "+0:05", "+12:03", "+1:02:03", and "+4d07h" past 100 hours.
func formatOffset(t, start time.Time) string {
	if t.IsZero() || start.IsZero() {
		return "--:--"
	}
	d := t.Sub(start)
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	s := int(d / time.Second)
	if s >= 100*3600 {
		// Days keep a long conversation's offsets as narrow as short ones.
		return fmt.Sprintf("%s%dd%02dh", sign, s/86400, s/3600%24)
	}
	if s >= 3600 {
		return fmt.Sprintf("%s%d:%02d:%02d", sign, s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%s%d:%02d", sign, s/60, s%60)
}

// formatCost prints a cost in dollars, or "unknown" when no price is known:
// a false $0 would tell the user the run was free.
func formatCost(cost float64, known bool) string {
	if !known {
		return "unknown"
	}
	if cost < 0.01 && cost > 0 {
		return fmt.Sprintf("$%.4f", cost)
	}
	return fmt.Sprintf("$%.2f", cost)
}

// formatPercent prints part/whole as a percentage, "-" when whole is 0.
func formatPercent(part, whole int64) string {
	if whole <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(part)/float64(whole))
}

// formatSpeed prints a replay speed: "0.25x", "1x", "64x".
func formatSpeed(s float64) string {
	return strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(s, 'f', 2, 64), "0"), ".") + "x"
}

// ordinal prints an event index as the 1-based number the user sees.
func ordinal(index int) string {
	return "#" + strconv.Itoa(index+1)
}
