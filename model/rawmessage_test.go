package model

import (
	"bytes"
	"strings"
	"testing"
)

// TestAppendHTMLEscapedAtEveryOffset puts each byte sequence the escaping
// looks for at every offset of lines of every length to 40, against the
// byte-at-a-time form it replaced: the word-at-a-time scan must find it
// wherever it falls in a word.
func TestAppendHTMLEscapedAtEveryOffset(t *testing.T) {
	byteAtATime := func(dst, src []byte) []byte {
		start := 0
		for i := 0; i < len(src); i++ {
			switch c := src[i]; {
			case c == '<' || c == '>' || c == '&':
				dst = append(dst, src[start:i]...)
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
				start = i + 1
			case c == 0xe2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xa8:
				dst = append(dst, src[start:i]...)
				dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xf])
				i += 2
				start = i + 1
			}
		}
		return append(dst, src[start:]...)
	}
	seqs := []string{"<", ">", "&", "\u2028", "\u2029", "\u2027", "\xe2\x80", "\xe2", "\xe2\x81\xa8", "<>&", "\u2028\u2029"}
	for _, seq := range seqs {
		for n := 0; n <= 40; n++ {
			for at := 0; at+len(seq) <= n; at++ {
				src := []byte(strings.Repeat("a", at) + seq + strings.Repeat("b", n-at-len(seq)))
				if got, want := string(AppendHTMLEscaped([]byte("x"), src)), string(byteAtATime([]byte("x"), src)); got != want {
					t.Fatalf("%q: got %q, want %q", src, got, want)
				}
			}
		}
	}
}

// twoPasses is AppendTerminalSafeRawMessage as it was first written: the
// terminal-safe form, then escaped as json.Marshal escapes a RawMessage.
func twoPasses(dst []byte, raw []byte) []byte {
	var scratch bytes.Buffer
	return AppendHTMLEscaped(dst, AppendTerminalSafeDecodedJSON(nil, &scratch, raw))
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
				got := string(AppendTerminalSafeRawMessage([]byte("x"), &scratch, raw))
				if want := string(twoPasses([]byte("x"), raw)); got != want {
					t.Fatalf("%q: got %q, want %q", raw, got, want)
				}
			}
		}
	}
}

// FuzzAppendTerminalSafeRawMessage holds the one pass to the two it
// replaced for every input, what Decode accepts or not, and makes it take
// anything without a panic.
func FuzzAppendTerminalSafeRawMessage(f *testing.F) {
	f.Add([]byte(" { \"id\" : \"a\", \"kind\":\"MessageEvent\",\n\"t\" : \"x\u009b\u202e\u2028\xff <&>\" }\r\n"))
	f.Add([]byte(`{"t":"👩` + "\u200d" + `👩 <b> &amp; \u2028"}`))
	f.Add([]byte(`{"a":"unterminated`))
	addFixtureEvents(f)
	var scratch bytes.Buffer
	f.Fuzz(func(t *testing.T, raw []byte) {
		got := AppendTerminalSafeRawMessage([]byte("prefix"), &scratch, raw)
		if want := twoPasses([]byte("prefix"), raw); string(got) != string(want) {
			t.Fatalf("%q:\ngot  %q\nwant %q", raw, got, want)
		}
	})
}
