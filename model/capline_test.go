package model

import (
	"strings"
	"testing"

	"ohwatch/internal/sanitize"
)

// capLineByRunes is capLine as it was, decoding every rune: the oracle.
func capLineByRunes(s string) string {
	s = strings.TrimSpace(sanitize.Line(s))
	n := 0
	for i := range s {
		if n == summaryLimit {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// TestCapLineCountsRunesAsDecodingDoes holds capLine, which counts runes
// by their first bytes, to the decoding count: lines of one- to four-byte
// runes, invalid bytes, controls and spaces, every length around the
// limit.
func TestCapLineCountsRunesAsDecodingDoes(t *testing.T) {
	pieces := []string{"a", "é", "€", "😀", "\xff", "\x1b[31m", " ", "\t", "\u200b", "\xe2\x80", "\u2028"}
	for _, p := range pieces {
		for _, q := range pieces {
			for n := summaryLimit - 3; n <= summaryLimit+3; n++ {
				for _, s := range []string{strings.Repeat(p, n), strings.Repeat(p, n/2) + strings.Repeat(q, n-n/2), q + strings.Repeat(p, n) + q} {
					if got, want := capLine(s), capLineByRunes(s); got != want {
						t.Fatalf("capLine(%q):\ngot  %q\nwant %q", s, got, want)
					}
				}
			}
		}
	}
}

func FuzzCapLine(f *testing.F) {
	f.Add("plain")
	f.Add(strings.Repeat("é", summaryLimit+1))
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := capLine(s), capLineByRunes(s); got != want {
			t.Fatalf("capLine(%q):\ngot  %q\nwant %q", s, got, want)
		}
	})
}
