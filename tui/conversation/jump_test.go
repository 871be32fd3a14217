package conversation

import (
	"strings"
	"testing"

	"ohwatch/tui/internal/tuitest"
)

// evAt is a MessageEvent stamped ts.
func evAt(id, ts string) string {
	return `{"id":"` + id + `","timestamp":"` + ts + `","source":"user","llm_message":{"role":"user",` +
		`"content":[{"type":"text","text":"at ` + ts + `"}]},"kind":"MessageEvent"}`
}

func TestJumpByTime(t *testing.T) {
	t.Parallel()
	// Times out of order: a 2019 event among 2031 ones, and one stamped
	// before the event it follows.
	log := tuitest.FixtureLog(t,
		evAt("e1", "2031-05-31T23:00:00Z"),
		evAt("e2", "2019-01-01T00:00:00Z"),
		evAt("e3", "2031-06-01T00:00:00Z"),
		evAt("e4", "2031-06-01T00:00:30Z"),
		evAt("e5", "2031-06-01T01:02:03Z"),
		evAt("e6", "2031-06-05T07:00:00Z"),
		evAt("e7", "2031-06-01T00:00:10Z"),
	)
	tests := []struct {
		from   int // the cursor before the jump (a time of day is on its day)
		target string
		want   int    // the cursor after; -1: it stays
		flash  string // what the footer says, if anything
	}{
		{0, "7", 6, ""},
		{0, "#5", 4, ""},
		{0, "2031-06-01", 2, ""},
		{0, "2031-06-01T00:00:05Z", 3, ""},
		{0, "2031-06-01T01:02:03Z", 4, ""},
		{0, "+0:30", 2, ""},
		{0, "+1:00:30", 3, ""},
		{0, "+1h00m30s", 3, ""},
		{0, "+4d07h", 5, ""},
		{0, "+4d08h", 5, ""},
		{2, "00:00:10", 3, ""},
		{2, "05:30:00+05:30", 2, ""},
		{2, "01:02", 4, ""},
		{2, "01:02:03Z", 4, ""},
		{0, "-0:00", 0, ""},
		{0, "2040-01-01", -1, "no event at or after 2040-01-01T00:00:00Z"},
		{0, "+9d", -1, "no event at or after"},
		{0, "0", -1, "no event 0 (1-7)"},
		{0, "soon", -1, "“soon” is no event number or time"},
		{0, "+1:99", -1, "is no event number or time"},
		{0, "25:00:00", -1, "is no event number or time"},
		{0, "12:00:00+99:00", -1, "is no event number or time"},
		{0, "+4x", -1, "is no event number or time"},
	}
	for _, tt := range tests {
		m := newModel(Options{Log: log}, 120, 30)
		m = jumpTo(t, m, Itoa(tt.from+1))
		m = jumpTo(t, m, tt.target)
		want := tt.want
		if want < 0 {
			want = tt.from
		}
		if m.cursor != want || !strings.Contains(m.Flash, tt.flash) || (tt.flash == "") != (m.Flash == "") {
			t.Errorf(":%s from %d → cursor %d flash %q; want %d %q", tt.target, tt.from, m.cursor, m.Flash, want, tt.flash)
		}
	}
}

func TestJumpIndexFollowsAGrowingLog(t *testing.T) {
	t.Parallel()
	log := tuitest.FixtureLog(t, evAt("e1", "2031-05-31T23:00:00Z"), evAt("e2", "2031-05-31T23:10:00Z"))
	m := newModel(Options{Log: log}, 120, 30)
	m = jumpTo(t, m, "+0:30")
	if m.cursor != 1 {
		t.Fatalf("cursor %d", m.cursor)
	}
	log.Append(tuitest.Decode(t, []byte(evAt("e3", "2031-06-01T00:00:00Z"))))
	m = jumpTo(t, m, "+1:00:00")
	if m.cursor != 2 {
		t.Fatalf("an event logged after the index was built: cursor %d, want 2", m.cursor)
	}
}

// FuzzJumpTarget: whatever is typed after ":", the jump answers with a
// move or a message, never a panic, and the cursor stays in the log.
func FuzzJumpTarget(f *testing.F) {
	for _, s := range []string{"7", "+0:30", "+1:02:03", "+4d07h", "14:03:00", "14:03:00+05:30", "2026-01-28T14:03:54Z",
		"-", "+", ":", "+1e308s", "+.s", "99999999999999999999", "00:00-", "1:2:3:4"} {
		f.Add(s)
	}
	log := tuitest.FixtureLog(f, evAt("e1", "2031-05-31T23:00:00Z"), evAt("e2", "2019-01-01T00:00:00Z"), evAt("e3", "2031-06-01T00:00:00Z"))
	f.Fuzz(func(t *testing.T, target string) {
		m := newModel(Options{Log: log}, 80, 24)
		_ = m.jumpTo(target)
		if c := m.cursor; c < 0 || c >= log.Len() {
			t.Fatalf("%q: cursor %d", target, c)
		}
	})
}
