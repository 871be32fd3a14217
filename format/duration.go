package format

import (
	"strconv"
	"time"
)

const (
	day  = 24 * time.Hour
	year = 365 * day
)

// Duration prints a span compactly and stably, with the units that matter
// at its size: "850ms", "12.3s", "4m05s", "2h03m", "4d07h12m", "3y12d".
// A negative span keeps its sign ("-1h27m"): it is not a length but a
// backwards gap (clock skew between machines), and the caller says so.
func Duration(d time.Duration) string {
	if d < 0 {
		if d == time.Duration(-1<<63) {
			d++ // -d would overflow; a nanosecond does not show
		}
		return "-" + Duration(-d)
	}
	switch {
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	case d.Round(100*time.Millisecond) < time.Minute:
		return strconv.FormatFloat(float64(d.Round(100*time.Millisecond))/1e9, 'f', 1, 64) + "s"
	case d < time.Hour:
		r := d.Round(time.Second) // 59.96s reads 1m00s, not 0m59s
		return strconv.Itoa(int(r/time.Minute)) + "m" + two(int(r/time.Second%60)) + "s"
	case d < day:
		return strconv.Itoa(int(d/time.Hour)) + "h" + two(int(d/time.Minute%60)) + "m"
	case d < year:
		return strconv.Itoa(int(d/day)) + "d" + two(int(d%day/time.Hour)) + "h" + two(int(d/time.Minute%60)) + "m"
	}
	return strconv.Itoa(int(d/year)) + "y" + strconv.Itoa(int(d%year/day)) + "d"
}

// Offset prints a time relative to a conversation's start in a fixed-width
// form for event rows: "+0:05", "+12:03", "+1:02:03", "+4d07h" past 100
// hours (days keep a long conversation's offsets as narrow as short ones),
// "+3y12d" past a year. "--:--" when either time is unknown.
func Offset(t, start time.Time) string {
	if t.IsZero() || start.IsZero() {
		return "--:--"
	}
	d := t.Sub(start)
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	s := int64(d / time.Second)
	switch {
	case d >= year:
		return sign + Duration(d)
	case s >= 100*3600:
		return sign + strconv.FormatInt(s/86400, 10) + "d" + two(int(s/3600%24)) + "h"
	case s >= 3600:
		return sign + strconv.FormatInt(s/3600, 10) + ":" + two(int(s/60%60)) + ":" + two(int(s%60))
	}
	return sign + strconv.FormatInt(s/60, 10) + ":" + two(int(s%60))
}

// Clock prints a time of day in UTC, so a screen or a transcript does not
// depend on the zone of the machine that shows it. "--:--:--" when unknown.
func Clock(t time.Time) string {
	if t.IsZero() {
		return "--:--:--"
	}
	return t.UTC().Format("15:04:05")
}

// two prints 0..99 with two digits.
func two(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
