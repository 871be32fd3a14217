package jsonx

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// quoteCases are strings on each side of every escaping rule.
var quoteCases = []string{
	"", "plain ascii, longer than eight bytes", `"quoted" \ back`, "\b\f\n\r\t\x00\x01\x1f\x7f",
	"<a href='x'>&amp;</a>", "\u2028 and \u2029", "héllo wörld ✓ 👩‍👩‍👧", "bad \xff\xfe utf-8 \xe2\x80",
	"abcdefg\x00abcdefgh<", strings.Repeat("12345678", 4) + "\"",
}

// TestAppendStringHTMLIsEncodingJSON: with HTML, AppendString writes what
// json.Marshal writes for the same string, byte for byte.
func TestAppendStringHTMLIsEncodingJSON(t *testing.T) {
	for _, s := range quoteCases {
		checkHTML(t, s)
	}
}

// TestAppendStringRoundTrips: in every mode the result is valid JSON that
// reads back as s (its invalid UTF-8 as U+FFFD); with ASCII it holds only
// printable ASCII.
func TestAppendStringRoundTrips(t *testing.T) {
	for _, s := range quoteCases {
		checkRoundTrip(t, s)
	}
}

func checkHTML(t *testing.T, s string) {
	t.Helper()
	want, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := AppendString(nil, s, HTML); string(got) != string(want) {
		t.Errorf("AppendString(%q, HTML) = %s, want %s", s, got, want)
	}
}

func checkRoundTrip(t *testing.T, s string) {
	t.Helper()
	// One U+FFFD per bad byte, as encoding/json writes (not one per run,
	// as strings.ToValidUTF8 would).
	want := decodeEachByte(s)
	for _, q := range []Quote{0, HTML, ASCII, HTML | ASCII} {
		b := AppendString(nil, s, q)
		var got string
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("AppendString(%q, %d) = %s: %v", s, q, b, err)
		}
		if got != want {
			t.Errorf("AppendString(%q, %d) = %s reads back as %q", s, q, b, got)
		}
		if q&ASCII != 0 {
			for _, c := range b {
				if c < 0x20 || c >= 0x7f {
					t.Errorf("AppendString(%q, ASCII) = %s holds %#x", s, b, c)
				}
			}
		}
	}
}

// decodeEachByte is s with each byte of invalid UTF-8 replaced by U+FFFD.
func decodeEachByte(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// TestASCIIIsPythons: ASCII writes what Python's json.dumps writes.
func TestASCIIIsPythons(t *testing.T) {
	for s, want := range map[string]string{
		"é\x7f👍\n":     `"\u00e9\u007f\ud83d\udc4d\n"`,
		"a<b\x01":      `"a<b\u0001"`,
		"a \"q\" \\ b": `"a \"q\" \\ b"`,
		"tab\tnl\n":    `"tab\tnl\n"`,
		"\x1b[0m":      `"\u001b[0m"`,
		"✅ done":       `"\u2705 done"`,
		"👋":            `"\ud83d\udc4b"`,
	} {
		if got := AppendString(nil, s, ASCII); string(got) != want {
			t.Errorf("AppendString(%q, ASCII) = %s, want %s", s, got, want)
		}
	}
}

// TestAppendStringAtEveryOffset puts each byte sequence a JSON string
// escapes at every offset of strings of every length to 24, against
// json.Marshal: the word-at-a-time skip must stop for it wherever it falls.
func TestAppendStringAtEveryOffset(t *testing.T) {
	seqs := []string{`"`, `\`, "<", ">", "&", "\x00", "\x1f", "\n", "\x7f", "é", "\u2028", "\xff", "=", "?", "$", "'"}
	for _, seq := range seqs {
		for n := len(seq); n <= 24; n++ {
			for at := 0; at+len(seq) <= n; at++ {
				s := strings.Repeat("a", at) + seq + strings.Repeat("b", n-at-len(seq))
				want, err := json.Marshal(s)
				if err != nil {
					t.Fatal(err)
				}
				if got := AppendString(nil, s, HTML); string(got) != string(want) {
					t.Fatalf("%q: got %s, want %s", s, got, want)
				}
				checkRoundTrip(t, s)
			}
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range quoteCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkHTML(t, s)
		checkRoundTrip(t, s)
		if !utf8.Valid(AppendString(nil, s, 0)) {
			t.Errorf("AppendString(%q) is not UTF-8", s)
		}
	})
}

func BenchmarkAppendString(b *testing.B) {
	s := "terminal: go test ./... exit 0 in 3.2s, 2024-05-01T12:00:00.123456"
	var buf []byte
	for b.Loop() {
		buf = AppendString(buf[:0], s, HTML)
	}
	b.SetBytes(int64(len(s)))
}
