package conversation

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
)

// jumper is the jump (:) to an event given as a 1-based index ("151",
// "#151") or as a time written the way the list shows times: relative to
// the start ("+0:30", "+1:02:03", "+4d07h"), a time of day ("14:03:00",
// UTC, or "14:03:00+05:30", on the cursor event's day) or a full ISO
// time. A time goes to the first event, in log order, stamped at or after
// it. It keeps the index that finds that event, built as far as a jump
// needed it.
type jumper struct {
	times timeIndex
}

// to finds the event text names in log, from the cursor's event and the
// conversation's start (the first timed event): a jump there, or a word
// for the footer saying why there is none.
func (j *jumper) to(text string, log *reducer.Log, cursor int, start time.Time) outcome {
	var o outcome
	text = strings.TrimSpace(text)
	if text == "" {
		return o
	}
	n := log.Len()
	if num, err := strconv.Atoi(strings.TrimPrefix(text, "#")); err == nil {
		if num < 1 || num > n {
			o.flash = "no event " + strings.TrimPrefix(text, "#") + " (1-" + Itoa(n) + ")"
			return o
		}
		o.jumpTo(num - 1)
		return o
	}
	t, ok := parseJumpTime(text, log, cursor, start)
	if !ok {
		o.flash = "“" + sanitize.Line(text) + "” is no event number or time (+1:02:03, 14:03:00, ISO)"
		return o
	}
	i, ok := j.times.firstAtOrAfter(log, t)
	if !ok {
		o.flash = "no event at or after " + t.UTC().Format(time.RFC3339)
		return o
	}
	o.jumpTo(i)
	return o
}

// parseJumpTime reads a relative offset (from start), a time of day (on
// the day of the cursor's event) or a full time.
func parseJumpTime(text string, log *reducer.Log, cursor int, start time.Time) (time.Time, bool) {
	if text[0] == '+' || text[0] == '-' {
		d, ok := parseOffset(text[1:])
		if !ok || start.IsZero() {
			return time.Time{}, false
		}
		if text[0] == '-' {
			d = -d
		}
		return start.Add(d), true
	}
	if clock, zone, ok := parseClock(text); ok {
		day := log.Event(max(cursor, 0)).Time
		if day.IsZero() {
			day = start
		}
		day = day.In(zone)
		return time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, zone).Add(clock), true
	}
	if t, err := model.ParseTime(text); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// parseOffset reads an offset as the list prints it, "0:30", "1:02:03",
// or with units, "4d07h", "1h27m", "37s", "12.3s", "850ms".
func parseOffset(s string) (time.Duration, bool) {
	if strings.Contains(s, ":") {
		parts := strings.Split(s, ":")
		if len(parts) > 3 {
			return 0, false
		}
		var d time.Duration
		for k, p := range parts {
			v, err := strconv.Atoi(p)
			if err != nil || v < 0 || v > 1e6 || p == "" || (k > 0 && (len(p) != 2 || v > 59)) {
				return 0, false
			}
			d = d*60 + time.Duration(v)
		}
		return d * time.Second, true
	}
	units := []struct {
		name string
		d    time.Duration
	}{{"ms", time.Millisecond}, {"d", 24 * time.Hour}, {"h", time.Hour}, {"m", time.Minute}, {"s", time.Second}}
	var total float64 // nanoseconds
	for s != "" {
		k := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
		if k <= 0 {
			return 0, false
		}
		v, err := strconv.ParseFloat(s[:k], 64)
		if err != nil {
			return 0, false
		}
		s = s[k:]
		found := false
		for _, u := range units {
			if rest, ok := strings.CutPrefix(s, u.name); ok {
				total += v * float64(u.d)
				s, found = rest, true
				break
			}
		}
		if !found || total > maxOffset {
			return 0, false
		}
	}
	return time.Duration(total), true
}

// maxOffset is the longest offset a jump takes, about 100 years: past
// it a time.Duration would overflow.
const maxOffset = float64(100 * 365 * 24 * time.Hour)

// parseClock reads a time of day, "14:03", "14:03:00", "14:03:00.5",
// with an optional zone, "Z", "+05:30", "-0700": the time since midnight
// and the zone (UTC when none is given).
func parseClock(s string) (time.Duration, *time.Location, bool) {
	zone := time.UTC
	body := s
	if k := strings.IndexAny(s, "+-Zz"); k > 0 {
		body = s[:k]
		z := s[k:]
		if z != "Z" && z != "z" {
			off, ok := parseZone(z)
			if !ok {
				return 0, nil, false
			}
			zone = time.FixedZone(z, off)
		}
	}
	for _, layout := range []string{"15:04:05.999999999", "15:04"} {
		if t, err := time.Parse(layout, body); err == nil {
			return t.Sub(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)), zone, true
		}
	}
	return 0, nil, false
}

// parseZone reads a UTC offset, "+05:30", "+0530", "-07", in seconds.
func parseZone(z string) (int, bool) {
	sign := 1
	if z[0] == '-' {
		sign = -1
	}
	digits := strings.ReplaceAll(z[1:], ":", "")
	if len(digits) != 2 && len(digits) != 4 {
		return 0, false
	}
	h, err := strconv.Atoi(digits[:2])
	if err != nil || h > 14 {
		return 0, false
	}
	mins := 0
	if len(digits) == 4 {
		if mins, err = strconv.Atoi(digits[2:]); err != nil || mins > 59 {
			return 0, false
		}
	}
	return sign * (h*3600 + mins*60), true
}

// timeIndex finds the first event, in log order, stamped at or after a
// time. Timestamps need not be sorted (clocks skew, a recording can mix
// sources), so it keeps the running maximum of the times so far: that
// sequence never decreases, and the first index where it reaches a time
// is exactly the first event at or after it. It grows with the log and is
// built only as far as a jump needs it.
type timeIndex struct {
	runMax []int64 // runMax[i]: the latest time among events 0..i
}

// firstAtOrAfter returns the first event stamped at or after t.
func (x *timeIndex) firstAtOrAfter(log *reducer.Log, t time.Time) (int, bool) {
	n := log.Len()
	if len(x.runMax) > n {
		x.runMax = nil // a different log: start over
	}
	for i := len(x.runMax); i < n; i++ {
		last := int64(-1 << 63)
		if i > 0 {
			last = x.runMax[i-1]
		}
		if et := log.Event(i).Time; !et.IsZero() {
			last = max(last, timeKey(et))
		}
		x.runMax = append(x.runMax, last)
	}
	key := timeKey(t)
	i := sort.Search(n, func(i int) bool { return x.runMax[i] >= key })
	return i, i < n
}

// timeKey orders times as int64 nanoseconds, saturating outside the years
// that fit (1678-2262) rather than wrapping.
func timeKey(t time.Time) int64 {
	switch {
	case t.Before(minKeyTime):
		return -1<<63 + 1
	case t.After(maxKeyTime):
		return 1<<63 - 1
	}
	return t.UnixNano()
}

var (
	minKeyTime = time.Unix(0, -1<<63+1)
	maxKeyTime = time.Unix(0, 1<<63-1)
)

// sortInts sorts event indices.
func sortInts(s []int) { sort.Ints(s) }
