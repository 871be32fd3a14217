package sanitize

import (
	"ohwatch/internal/jsonx"

	"bytes"
	"strings"
	"testing"
)

// twoPasses is AppendRawMessage as it was first written: the
// terminal-safe form, then escaped as json.Marshal escapes a RawMessage.
func twoPasses(dst []byte, raw []byte) []byte {
	var scratch bytes.Buffer
	return jsonx.AppendHTMLEscaped(dst, AppendDecodedJSON(nil, &scratch, raw))
}

// TestRawMessageAtEveryOffset puts each sequence the one pass must escape
// or refuse as unclean at every offset of a string of every length to 40,
// against the two passes it replaced: the word-at-a-time scan must see it
// wherever it falls in a word, and leave it to the slow form when it is
// not clean.
func TestRawMessageAtEveryOffset(t *testing.T) {
	seqs := []string{"<", ">", "&", "\x7f", "\u009b", "\u202e", "\u2028", "\u2029", "\u200b", "\xff", "\xe2\x80",
		"é", "日本", "👩\u200d👩", "a\u200db", "\ufeff", "<\u202e&", `\"<`}
	var scratch bytes.Buffer
	for _, seq := range seqs {
		for n := 0; n <= 40; n++ {
			for at := 0; at+len(seq) <= n; at++ {
				raw := []byte(`{"t": "` + strings.Repeat("a", at) + seq + strings.Repeat("b", n-at-len(seq)) + `"}`)
				got := string(AppendRawMessage([]byte("x"), &scratch, raw))
				if want := string(twoPasses([]byte("x"), raw)); got != want {
					t.Fatalf("%q: got %q, want %q", raw, got, want)
				}
			}
		}
	}
}

// FuzzAppendRawMessage holds the one pass to the two it
// replaced for every input, what Decode accepts or not, and makes it take
// anything without a panic.
func FuzzAppendRawMessage(f *testing.F) {
	f.Add([]byte(" { \"id\" : \"a\", \"kind\":\"MessageEvent\",\n\"t\" : \"x\u009b\u202e\u2028\xff <&>\" }\r\n"))
	f.Add([]byte(`{"t":"👩` + "\u200d" + `👩 <b> &amp; \u2028"}`))
	f.Add([]byte(`{"a":"unterminated`))
	addFixtureEvents(f)
	var scratch bytes.Buffer
	f.Fuzz(func(t *testing.T, raw []byte) {
		got := AppendRawMessage([]byte("prefix"), &scratch, raw)
		if want := twoPasses([]byte("prefix"), raw); string(got) != string(want) {
			t.Fatalf("%q:\ngot  %q\nwant %q", raw, got, want)
		}
	})
}
