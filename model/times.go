package model

import (
	"errors"
	"math"
	"strings"
	"time"

	"ohwatch/internal/sanitize"
)

// ParseTime reads the timestamps OpenHands writes: event timestamps are
// naive ISO 8601 in server-local time (normally UTC in sandboxes), with or
// without a fraction of any length; metadata and the Cloud use `Z` or an
// offset. A naive time is taken as UTC. A space may stand for the `T`.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, ok := parseCommonTime(s); ok {
		return t, nil
	}
	return parseTimeLayouts(s)
}

// parseTimeLayouts is ParseTime by time.Parse and the layouts OpenHands
// writes, for every form parseCommonTime leaves to it.
func parseTimeLayouts(s string) (time.Time, error) {
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
	return time.Time{}, errors.New("unrecognised timestamp " + sanitize.Line(truncateForError(s)))
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

// parseCommonTime reads the form nearly every timestamp has,
// YYYY-MM-DDTHH:MM:SS with a fraction of up to nine digits or none and
// an optional Z, straight from its digits: time.Parse interprets its
// layout on every call, and was an eighth of the time a load spent
// decoding events. ok is false for anything else, and for a value out of
// range, which parseTimeLayouts then reads (or rejects) as before.
func parseCommonTime(s string) (time.Time, bool) {
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' && s[10] != ' ' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	year, ok1 := fixedDigits(s[0:4])
	month, ok2 := fixedDigits(s[5:7])
	day, ok3 := fixedDigits(s[8:10])
	hour, ok4 := fixedDigits(s[11:13])
	minute, ok5 := fixedDigits(s[14:16])
	sec, ok6 := fixedDigits(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) {
		return time.Time{}, false
	}
	frac := strings.TrimSuffix(s[19:], "Z")
	nanos := 0
	if frac != "" {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			return time.Time{}, false
		}
		n, ok := fixedDigits(frac[1:])
		if !ok {
			return time.Time{}, false
		}
		for range 10 - len(frac) {
			n *= 10
		}
		nanos = n
	}
	if month < 1 || month > 12 || day < 1 || day > daysIn(time.Month(month), year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nanos, time.UTC), true
}

// fixedDigits reads a run of decimal digits; ok is false when any byte
// is not one.
func fixedDigits(s string) (n int, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysIn is the number of days of month m in year y.
func daysIn(m time.Month, y int) int {
	if m == time.February {
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	}
	return 31 - int(m-1)%7%2
}
