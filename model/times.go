package model

import (
	"errors"
	"math"
	"strings"
	"time"
)

// ParseTime reads the timestamps OpenHands writes: event timestamps are
// naive ISO 8601 in server-local time (normally UTC in sandboxes), with or
// without a fraction of any length; metadata and the Cloud use `Z` or an
// offset. A naive time is taken as UTC. A space may stand for the `T`.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if len(s) > 10 && s[10] == ' ' {
		s = s[:10] + "T" + s[11:]
	}
	// Try the layout the string looks like first: a failed parse costs an
	// allocated error, and this runs for every event.
	layouts := [...]string{naiveLayout, time.RFC3339Nano, naiveOffsetLayout, "2006-01-02T15:04", "2006-01-02"}
	if hasZone(s) {
		layouts[0], layouts[1] = layouts[1], layouts[0]
	}
	for _, layout := range layouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("unrecognised timestamp " + SanitizeLine(truncateForError(s)))
}

// The layouts of naive timestamps (any fraction length) and of offsets
// without a colon (+0000), as some Python formatters write them.
const (
	naiveLayout       = "2006-01-02T15:04:05.999999999"
	naiveOffsetLayout = "2006-01-02T15:04:05.999999999-0700"
)

// hasZone reports whether a timestamp ends in Z or a numeric offset.
func hasZone(s string) bool {
	if strings.HasSuffix(s, "Z") || strings.HasSuffix(s, "z") {
		return true
	}
	return len(s) > 19 && strings.ContainsAny(s[19:], "+-")
}

// UnixFloatTime converts a unix time in float seconds (Metrics cost
// timestamps) to a time, keeping microseconds; zero for 0, NaN or ±Inf.
func UnixFloatTime(f float64) time.Time {
	if f == 0 || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e12 {
		return time.Time{}
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC()
}

// truncateForError keeps an error message short whatever the input.
func truncateForError(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
