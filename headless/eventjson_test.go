package headless

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// marshalled is an event's line as json.Marshal writes an eventLine whose
// event is the raw JSON made terminal-safe: what eventJSON must write.
func marshalled(t testing.TB, l eventLine, raw []byte) string {
	t.Helper()
	safe, ok := sanitize.JSON(raw)
	if !ok {
		safe = []byte(invalidJSON)
	}
	l.Event = json.RawMessage(safe)
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// lineOf is e's line for l and raw, written both ways when Decode accepts
// raw (as the log stores it, not validated again, and as any bytes): the
// two must agree, or it returns a line that says they do not.
func lineOf(e *eventJSON, l eventLine, raw []byte) string {
	line := string(e.append(l, raw, false))
	if _, err := model.Decode(raw); err == nil {
		if decoded := string(e.append(l, raw, true)); decoded != line {
			return "decoded bytes gave another line: " + decoded
		}
	}
	return line
}

// hostileStrings hold everything encoding/json escapes or rewrites.
var hostileStrings = []string{
	"", "plain", `quote " and \ backslash`, "<script>&amp;</script>", "\b\f\n\r\t\x00\x01\x1f\x7f",
	"line\u2028sep\u2029para", "c1 \u0085 bidi \u202e zw \u200b", "emoji 😀 ü", "bad \xff\xfe utf8 \xe2\x80 cut \xe2",
	"\xe2\x80\xa8 raw separator bytes", "end with partial \xe2\x80",
}

// hostileEvents are raw events with whitespace between tokens, escapes
// spelled in the source, markup, separators and invalid bytes in strings,
// and bytes that are not JSON at all.
var hostileEvents = []string{
	`{"id":"a","kind":"MessageEvent"}`,
	"{ \"id\" : \"a\",\n\t\"v\" : [1, 2, {\"x\": null}] }",
	`{"t":"<b>&</b> \u003c \u2028 \ud83d\ude00 \u001b[31m"}`,
	"{\"t\":\"raw \u2028 \u2029 \u0085 \u202e \x7f \xff\"}",
	`{"t":"a"} trailing`, `{"t":`, "", "[1,2,3]", `"just a string <>"`,
}

func TestEventJSONWritesWhatMarshalWrites(t *testing.T) {
	var e eventJSON
	n := 0
	for _, s := range hostileStrings {
		for _, raw := range hostileEvents {
			for _, awaiting := range []bool{false, true} {
				l := eventLine{Type: "event", Index: n, ID: s, Kind: s, Source: s, Timestamp: s, Summary: s, Risk: s, Awaiting: awaiting}
				if got, want := lineOf(&e, l, []byte(raw)), marshalled(t, l, []byte(raw)); got != want {
					t.Fatalf("line for %q, %q:\ngot  %s\nwant %s", s, raw, got, want)
				}
				n -= 7
			}
		}
	}
}

// TestEventJSONOverTheRecordings checks every event file of the project's
// recordings, as they were written.
func TestEventJSONOverTheRecordings(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "*", "events", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no event files: %v", err)
	}
	var e eventJSON
	for i, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		l := eventLine{Type: "event", Index: i, ID: filepath.Base(p), Kind: "K", Summary: strings.Repeat("<s>", i%3)}
		if got, want := lineOf(&e, l, raw), marshalled(t, l, raw); got != want {
			t.Fatalf("%s:\ngot  %s\nwant %s", p, got, want)
		}
	}
}

func FuzzEventJSON(f *testing.F) {
	for i, s := range hostileStrings {
		f.Add(s, []byte(hostileEvents[i%len(hostileEvents)]), i)
	}
	var e eventJSON
	f.Fuzz(func(t *testing.T, s string, raw []byte, index int) {
		l := eventLine{Type: "event", Index: index, ID: s, Kind: s, Source: s, Summary: s, Risk: s, Awaiting: index%2 == 0}
		if got, want := lineOf(&e, l, raw), marshalled(t, l, raw); got != want {
			t.Fatalf("got  %s\nwant %s", got, want)
		}
	})
}
