package conversation

import (
	"bytes"
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/fixtures"
	"ohwatch/theme"
	"ohwatch/tui/internal/tuitest"
)

// finishSearch runs a search's chunks until it is done, as the program
// would run the commands it returns.
func finishSearch(tb testing.TB, m *Conversation) *Conversation {
	tb.Helper()
	for k := 0; m.search.running; k++ {
		if k > 10_000 {
			tb.Fatal("the search never finishes")
		}
		m, _ = send(m, m.search.scanCmd(m.Addr(), m.Log, m.search.scanned, m.search.end)())
	}
	return m
}

// lowerRef lower-cases ASCII letters one byte at a time: the reference the
// word-at-a-time fold must agree with.
func lowerRef(b []byte) []byte {
	out := make([]byte, len(b))
	for k, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[k] = c
	}
	return out
}

// containsRef is the reference smart-case match.
func containsRef(hay []byte, query string) bool {
	if strings.ToLower(query) == query {
		return bytes.Contains(lowerRef(hay), []byte(query))
	}
	return bytes.Contains(hay, []byte(query))
}

func TestMatcherAgreesWithAPlainScan(t *testing.T) {
	t.Parallel()
	border := strings.Repeat("x", foldWindow-3) // a match across the first window's end
	huge := strings.Repeat("aB", 3*foldWindow) + "Row 400000" + strings.Repeat("é", 10)
	tests := []struct {
		hay, query string
		want       bool
	}{
		{"Hello World", "hello", true},
		{"Hello World", "Hello", true},
		{"hello world", "Hello", false},
		{"HELLO", "hello", true},
		{"", "a", false},
		{"abc", "", true},
		{"12:30 → done", "12:30", true},
		{"ÉCOLE école", "école", true}, // non-ASCII bytes match as they are
		{"ÉCOLE", "école", false},
		{"[@\\]^_`{", "@\\]^_`{", true}, // the bytes around the letters do not fold
		{"[@\\]^_`{", "`", true},
		{"@", "`", false},
		{border + "ROW 4", "row 4", true},
		{border + "ROW", "row 4", false},
		{huge, "row 400000", true},
		{huge, "row 400001", false},
		{huge, "éé", true},
		{strings.Repeat("r", 1<<20), "row", false},
		// Near-matches everywhere: the anchor is at every byte, so the
		// search falls back to folding windows, and still finds the end.
		{strings.Repeat("B", 100_000) + "bbbbbbbbbbbbbbbA", "bbbbbbbbbbbbbbba", true},
		{strings.Repeat("B", 100_000) + "bbbbbbbbbbbbbbb", "bbbbbbbbbbbbbbba", false},
	}
	for _, tt := range tests {
		m := newMatcher(tt.query)
		got, gotBytes := m.matchString(tt.hay), m.matchBytes([]byte(tt.hay))
		if got != tt.want || gotBytes != tt.want || containsRef([]byte(tt.hay), tt.query) != tt.want {
			t.Errorf("%.30q in %.40q…: string %v, bytes %v, want %v", tt.query, tt.hay, got, gotBytes, tt.want)
		}
	}
}

func TestLowerASCIIEveryByte(t *testing.T) {
	t.Parallel()
	in := make([]byte, 256+7)
	for k := range in {
		in[k] = byte(k)
	}
	for off := 0; off < 8; off++ {
		got := bytes.Clone(in[off:])
		lowerASCII(got)
		if want := lowerRef(in[off:]); !bytes.Equal(got, want) {
			t.Fatalf("offset %d: %q, want %q", off, got, want)
		}
	}
}

// FuzzMatcher: the windowed, word-at-a-time search agrees with a plain
// scan of the lower-cased text for any text and query.
func FuzzMatcher(f *testing.F) {
	f.Add([]byte("Hello World"), "o w")
	f.Add([]byte(`{"text":"Row 400000 ÉÈ"}`), "row 4")
	f.Add(bytes.Repeat([]byte("aA"), foldWindow), "aaa")
	f.Add([]byte(strings.Repeat("9w é", 40)+"ROW 99"), "row 99")
	f.Fuzz(func(t *testing.T, hay []byte, query string) {
		if len(query) > maxQueryLen {
			return
		}
		m := newMatcher(query)
		want := containsRef(hay, query)
		if got := m.matchBytes(hay); got != want {
			t.Fatalf("%q in %q: %v, want %v", query, hay, got, want)
		}
		if got := m.matchString(string(hay)); got != want {
			t.Fatalf("string: %q in %q: %v, want %v", query, hay, got, want)
		}
		if got := matchLarge(context.Background(), m, hay); got != want {
			t.Fatalf("in slices: %q in %q: %v, want %v", query, hay, got, want)
		}
	})
}

func TestSearchTypingPreviewsAndEnterKeeps(t *testing.T) {
	t.Parallel()
	log := tuitest.Generated(t, 3000, 11)
	m := newModel(Options{Log: log}, 160, 48)
	want := matchesOf(log, "test suite")
	if len(want) < 3 || want[len(want)-1] < 500 {
		t.Fatalf("a generated run should have matches all over it: %v", want)
	}
	m, _ = press(t, m, "/")
	if text, ok := searchPrompt(screen(m)); !ok || text != "" {
		t.Fatalf("/ does not open an empty search prompt:\n%s", screen(m))
	}
	m = typeText(t, m, "test suite")
	if !m.search.running || m.search.query != "test suite" {
		t.Fatalf("typing does not search as it goes: %+v", m.search.query)
	}
	m = finishSearch(t, m)
	// The preview has moved to the first match and marks every match.
	if m.cursor != want[0] || !equalInts(m.search.matches, want) {
		t.Fatalf("preview: cursor %d, %d matches; want %d, %d", m.cursor, len(m.search.matches), want[0], len(want))
	}
	if text, ok := searchPrompt(screen(m)); !ok || text != "test suite" {
		t.Fatalf("the prompt closed while typing:\n%s", screen(m))
	}
	m, cmd := press(t, m, "enter")
	if _, open := searchPrompt(screen(m)); open || m.search.query != "test suite" || cmd != nil {
		t.Fatal("enter does not keep the previewed search")
	}
	s := screen(m)
	if !strings.Contains(s, "match 1/"+Itoa(len(want))) || !strings.Contains(s, countMatches(len(want))) {
		t.Fatalf("no match position in the footer or count in the title:\n%s", s)
	}
	m, _ = press(t, m, "n")
	if m.cursor != want[1] || !strings.Contains(screen(m), "match 2/"+Itoa(len(want))) {
		t.Fatalf("n: cursor %d, want %d; footer:\n%s", m.cursor, want[1], screen(m))
	}
	m, _ = press(t, m, "N", "N")
	if m.cursor != want[len(want)-1] {
		t.Fatal("N from the first match wraps to the last")
	}
	// The next / starts empty again; the old search stays until typing.
	m, _ = press(t, m, "/")
	if text, _ := searchPrompt(screen(m)); text != "" || m.search.query != "test suite" {
		t.Fatalf("/ after a search: prompt %q, search %q", text, m.search.query)
	}
}

func TestSearchEscReturnsAndRestores(t *testing.T) {
	t.Parallel()
	log := tuitest.Generated(t, 2000, 3)
	m := newModel(Options{Log: log}, 160, 48)
	m, _ = press(t, m, "/")
	m = finishSearch(t, typeText(t, m, "Read"))
	m, _ = press(t, m, "enter")
	m = jumpTo(t, m, "10")
	m, _ = press(t, m, "/")
	m = finishSearch(t, typeText(t, m, "test suite"))
	if m.cursor == 9 {
		t.Fatal("the preview did not move")
	}
	m, _ = press(t, m, "esc")
	m = finishSearch(t, m)
	if m.cursor != 9 || m.search.query != "Read" || !equalInts(m.search.matches, matchesOf(log, "Read")) {
		t.Fatalf("esc: cursor %d, search %q with %d matches; want 9, the earlier search", m.cursor, m.search.query, len(m.search.matches))
	}
	if m.Flash != "" {
		t.Fatalf("restoring the earlier search said %q", m.Flash)
	}
}

func TestSearchHistoryAndEditingKeys(t *testing.T) {
	t.Parallel()
	log := tuitest.Generated(t, 500, 3)
	m := newModel(Options{Log: log}, 160, 48)
	for _, q := range []string{"Read", "test suite"} {
		m, _ = press(t, m, "/")
		m = finishSearch(t, typeText(t, m, q))
		m, _ = press(t, m, "enter")
	}
	m, _ = press(t, m, "/")
	// Each step presses keys, then types text; the prompt then holds want.
	steps := []struct {
		keys       []string
		text, want string
	}{
		{[]string{"up"}, "", "test suite"}, // the latest search
		{[]string{"up", "up"}, "", "Read"}, // and no further than the first
		{[]string{"down", "down"}, "", ""}, // past the latest: empty again
		{nil, "test sweet", "test sweet"},
		{[]string{"ctrl+w"}, "suite", "test suite"},
		{[]string{"home"}, "a ", "a test suite"},
		{[]string{"end", "ctrl+u"}, "ac", "ac"},
		{[]string{"left"}, "b", "abc"},
	}
	for _, st := range steps {
		m, _ = press(t, m, st.keys...)
		m = typeText(t, m, st.text)
		if got, _ := searchPrompt(screen(m)); got != st.want {
			t.Fatalf("%v then %q: the prompt holds %q, want %q", st.keys, st.text, got, st.want)
		}
	}
	if !strings.Contains(screen(m), "/ab") {
		t.Fatal("the prompt does not show its text")
	}
}

func TestPasteIntoPrompts(t *testing.T) {
	t.Parallel()
	log := tuitest.Recorded(t, fixtures.Confirm)
	m := newModel(Options{Log: log}, 160, 48)
	m, _ = press(t, m, "/")
	m, _ = send(m, tea.PasteMsg{Content: "echo\x1b]52;c;eA==\x07\nhi"})
	v, _ := searchPrompt(screen(m))
	// Read off the screen unstripped too: no part of the sequence reaches it.
	if !strings.HasPrefix(v, "echo") || strings.ContainsAny(v, "\x1b\x07\n") || strings.ContainsAny(lastRow(screen(m)), "\x07") || strings.Contains(screen(m), "]52;") {
		t.Fatalf("paste into / gives %q", v)
	}
	if !m.search.running || m.search.query != strings.TrimSpace(v) {
		t.Fatal("a paste does not preview the search")
	}
	m, _ = press(t, m, "esc", ":")
	m, _ = send(m, tea.PasteMsg{Content: "7"})
	m, _ = press(t, m, "enter")
	if m.cursor != 6 {
		t.Fatalf("pasted :7 → cursor %d", m.cursor)
	}
}

func TestSupersededSearchIsCancelled(t *testing.T) {
	t.Parallel()
	log := tuitest.Generated(t, 2000, 5)
	m := newModel(Options{Log: log}, 160, 48)
	first := m.startSearch("Read", true, false)
	second := m.startSearch("test suite", true, false)
	// The first search's command runs after it was replaced: it stops at
	// once, having looked at nothing, and its answer changes nothing.
	msg := first().(searchProgressMsg)
	if !msg.cancelled || msg.next != 0 || len(msg.matches) != 0 {
		t.Fatalf("a replaced search went on: %+v", msg)
	}
	m, cmd := send(m, msg)
	if cmd != nil || len(m.search.matches) != 0 || !m.search.running {
		t.Fatal("a cancelled search's answer was used")
	}
	m, _ = send(m, second())
	if want := matchesOf(log, "test suite"); !equalInts(m.search.matches, want) {
		t.Fatalf("%d matches, want %d", len(m.search.matches), len(want))
	}
	// Clearing the search cancels it too.
	third := m.startSearch("Read", false, false)
	_ = m.startSearch("", false, false)
	if msg := third().(searchProgressMsg); !msg.cancelled {
		t.Fatal("clearing the search did not cancel it")
	}
}

func TestCancelStopsInsideAHugeEvent(t *testing.T) {
	t.Parallel()
	// A match only at the end of 8 MB: found when the search runs on,
	// not when it was cancelled before getting there.
	raw := append(bytes.Repeat([]byte("r"), 8<<20), "Row"...)
	m := newMatcher("row")
	if !matchLarge(context.Background(), m, raw) {
		t.Fatal("no match at the end of a large event")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if matchLarge(ctx, m, raw) {
		t.Fatal("a cancelled search read a large event to its end")
	}
}

func TestSearchShowsProgressAndMatchesSoFar(t *testing.T) {
	t.Parallel()
	log := tuitest.Generated(t, 1000, 3)
	want := matchesOf(log, "read")
	m := newModel(Options{Log: log}, 160, 48)
	// A small chunk lets a 1000-event log be watched mid-search; no key
	// or option sets it, so the test sets the search's own.
	m.search.chunkEvents = 100
	m = jumpTo(t, m, "900")
	cmd := m.startSearch("read", true, false)
	m, next := send(m, cmd())
	if !m.search.running || next == nil || m.search.scanned != 100 {
		t.Fatalf("after one chunk: running %v, scanned %d", m.search.running, m.search.scanned)
	}
	s := screen(m)
	if !strings.Contains(s, "searching… 10%") || !strings.Contains(s, "searching “read”… 10%") {
		t.Fatalf("no progress on the screen:\n%s", s)
	}
	if m.cursor != 899 {
		t.Fatal("the search moved before finding a match after the cursor")
	}
	m = finishSearch(t, m)
	if !equalInts(m.search.matches, want) {
		t.Fatalf("%d matches, want %d", len(m.search.matches), len(want))
	}
	if i, _ := nextIn(want, 898, true); m.cursor != i {
		t.Fatalf("cursor %d, want the first match from the cursor on, %d", m.cursor, i)
	}
}

func TestOneMatchIsSingular(t *testing.T) {
	t.Parallel()
	log := tuitest.FixtureLog(t, evMessage("m1", "user", "the only needle here"), evMessage("m2", "agent", "nothing"))
	m := newModel(Options{Log: log}, 120, 30)
	m, _ = press(t, m, "/")
	m = finishSearch(t, typeText(t, m, "needle"))
	m, _ = press(t, m, "enter")
	s := screen(m)
	if !strings.Contains(s, "“needle”: 1 match") || strings.Contains(s, "1 matches") {
		t.Fatalf("one match:\n%s", s)
	}
	m, _ = press(t, m, "/")
	m = finishSearch(t, typeText(t, m, "absent"))
	m, _ = press(t, m, "enter")
	if !strings.Contains(m.Flash, "no match for “absent”") {
		t.Fatalf("flash %q", m.Flash)
	}
}

func TestMatchesHighlightedInRowsAndScrubber(t *testing.T) {
	t.Parallel()
	log := tuitest.FixtureLog(t, evMessage("m1", "user", "Please echo the word"), evMessage("m2", "agent", "nothing here"),
		evMessage("m3", "agent", "echo ECHO done"))
	m := NewConversation(Options{Log: log, Theme: theme.DarkMode})
	m, _ = send(m, tuitest.WindowSize(120, 30))
	m, _ = press(t, m, "/")
	m = finishSearch(t, typeText(t, m, "echo"))
	m, _ = press(t, m, "enter", "j") // the cursor's row is drawn in one style
	hl := matchStyle(m.styles)
	s := screen(m)
	for _, want := range []string{hl.Render("echo"), hl.Render("ECHO")} {
		if !strings.Contains(s, want) {
			t.Fatalf("no highlighted %q in the rows", want)
		}
	}
	if !strings.Contains(s, matchStyleGlyph(m)) {
		t.Fatal("no match mark on the scrubber")
	}
	// Without a search, nothing is highlighted.
	m, _ = press(t, m, "/", "enter")
	if strings.Contains(screen(m), hl.Render("echo")) {
		t.Fatal("highlight stays after the search was cleared")
	}
}

// matchStyleGlyph is the scrubber's match mark as drawn.
func matchStyleGlyph(m *Conversation) string { return m.styles.Warn.Render(m.styles.Glyphs.MarkMatch) }

// evMessage is a MessageEvent with one text part.
func evMessage(id, source, text string) string {
	return `{"id":"` + id + `","timestamp":"2026-01-27T03:56:24.000000","source":"` + source +
		`","llm_message":{"role":"` + map[string]string{"user": "user", "agent": "assistant"}[source] +
		`","content":[{"type":"text","text":"` + text + `"}]},"kind":"MessageEvent"}`
}

func TestAnchorTrialKeepsTheCheapest(t *testing.T) {
	t.Parallel()
	// 'j' is the rarer byte by the static guess, but this text is full of
	// it and has no '9': after trying both, the search anchors on '9'.
	m := newMatcher("j9")
	if m.anchor != 0 {
		t.Fatalf("the first anchor tried is at %d, want the j", m.anchor)
	}
	text := []byte(strings.Repeat("jJ j ", anchorTrialBytes/5+1))
	settleTrial(t, m, text)
	if !m.trial.settled || m.trial.pairs || m.anchor != 1 || m.check != 0 {
		t.Fatalf("settled %v (pairs %v) on anchor %d check %d (costs %v), want the 9", m.trial.settled, m.trial.pairs, m.anchor, m.check, m.trial.costs)
	}
	if !m.matchBytes(append(text, " J9"...)) {
		t.Fatal("no match with the settled anchor")
	}
}

func TestPairScanFindsEveryStart(t *testing.T) {
	t.Parallel()
	// Text long enough for the pair scan, full of both of its bytes
	// (and of non-ASCII ones) but never at their distance in the query:
	// a match at every start from the first to the last is found, and a
	// near-miss at any of them is not.
	const query = "row 99999999"
	for size := shortText; size < shortText+3*pairBlock; size += 7 {
		filler := []byte(strings.Repeat("9w é", size)[:size])
		for at := 0; at+len(query) <= size; at++ {
			for _, tt := range []struct {
				put  string
				want bool
			}{{"ROW 99999999", true}, {"row 9999999x", false}} {
				hay := bytes.Clone(filler)
				copy(hay[at:], tt.put)
				// Check byte 'w' (folding) and ' ' (not).
				for _, check := range []int{2, 3} {
					m := newMatcher(query)
					m.trial.settled, m.trial.pairs, m.anchor, m.check = true, true, 4, check
					if got := m.matchBytes(hay); got != tt.want || containsRef(hay, query) != tt.want {
						t.Fatalf("%q at %d of %d, check %d: %v, want %v", tt.put, at, size, check, got, tt.want)
					}
				}
			}
		}
	}
}

func TestAnchorTrialSettlesOnPairs(t *testing.T) {
	t.Parallel()
	// Every byte of the query is in one byte in four of this text, too
	// common to jump between, but never next to the other: the search
	// settles on the pair scan.
	m := newMatcher("9z")
	text := []byte(strings.Repeat("9 z ", anchorTrialBytes/4+1))
	settleTrial(t, m, text)
	if !m.trial.settled || !m.trial.pairs {
		t.Fatalf("settled %v, pairs %v (costs %v), want the pair scan", m.trial.settled, m.trial.pairs, m.trial.costs)
	}
	if !m.matchBytes(append(text, " 9Z"...)) {
		t.Fatal("no match with the pair scan")
	}
	// A large text unlike those (a log that holds neither byte but in
	// its match) is searched by jumps first: one place of the anchor,
	// found with bytes.IndexByte, not a pair scan of all of it.
	before := m.trial.cands
	large := []byte(strings.Repeat("abc ", jumpFirst/4) + "9Z")
	if !m.matchBytes(large) || m.trial.cands != before+1 {
		t.Fatalf("the large text: %d places of the anchor tried, want 1", m.trial.cands-before)
	}
}

func TestPairScanPrefersBytesThatDoNotFold(t *testing.T) {
	t.Parallel()
	// '9' and ':' are both common here: the pair scan settles on them
	// (rather than on a letter, which would need folding).
	m := newMatcher("x:9")
	text := []byte(strings.Repeat("9 : x ", anchorTrialBytes/6+1))
	settleTrial(t, m, text)
	if !m.trial.pairs || isLetter(m.needle[m.anchor]) || isLetter(m.needle[m.check]) {
		t.Fatalf("pairs %v on %q and %q (costs %v), want the two bytes that do not fold", m.trial.pairs, m.needle[m.anchor], m.needle[m.check], m.trial.costs)
	}
	if !m.matchBytes(append(text, "X:9"...)) {
		t.Fatal("no match with that pair")
	}
}

// settleTrial searches text, which must not match, until the anchor
// trial has tried each choice on it.
func settleTrial(t *testing.T, m *matcher, text []byte) {
	t.Helper()
	for k := 0; k < anchorTrialChoices; k++ {
		if m.matchBytes(text) {
			t.Fatal("a match where there is none")
		}
	}
}
