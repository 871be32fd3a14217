package jsonx

import (
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
