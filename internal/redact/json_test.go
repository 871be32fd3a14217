package redact

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestLowerGramIsTheGramOfTheLoweredText: the eight-at-once lowercasing
// agrees with asciiLower on every byte value in every position (the
// bytes around 'A' and 'Z', and their copies with the high bit set, are
// where a word-at-a-time test goes wrong).
func TestLowerGramIsTheGramOfTheLoweredText(t *testing.T) {
	for c := range 256 {
		for pos := range minPartial {
			b := []byte("a0Zz@[`{")
			b[pos] = byte(c)
			if got, want := lowerGram(string(b)), gram(asciiLower(string(b))); got != want {
				t.Fatalf("byte %#x at %d: %#x, want %#x", c, pos, got, want)
			}
		}
	}
}

// TestRedactingABigEventStaysBounded: a 16 MB event full of escapes that
// echoes the key where only decoding shows it costs a few times its size
// to redact, not the 19 times a span per byte cost (a 64 MiB event would
// have taken over a gigabyte). Not parallel: it counts the process's
// allocations.
func TestRedactingABigEventStaysBounded(t *testing.T) {
	const key = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c6b5a4"
	var hidden strings.Builder // every sixth byte escaped: no plain piece is long enough
	for i := 0; i < len(key); i++ {
		if i%6 == 0 {
			fmt.Fprintf(&hidden, `\u%04x`, key[i])
		} else {
			hidden.WriteByte(key[i])
		}
	}
	raw := []byte(`{"kind":"ObservationEvent","id":"x","text":"` + strings.Repeat(`line \"q\"\n`, 1_500_000) + hidden.String() + `"}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out := JSON(raw, key)
	runtime.ReadMemStats(&after)
	if !bytes.Contains(out, []byte(Redacted)) || bytes.Contains(out, []byte(hidden.String())) {
		t.Fatal("the hidden key was not redacted")
	}
	if ratio := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(raw)); ratio > 8 {
		t.Errorf("redacting a %d MB event allocated %.1fx its size", len(raw)>>20, ratio)
	}
}

// FuzzRedactJSON: RedactJSON never panics, hands back the very bytes it
// was given when it changes nothing, leaves its input as it was, and
// leaves no echo of a secret of eight or more characters, in any ASCII
// case, in what it changed.
func FuzzRedactJSON(f *testing.F) {
	const key = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c"
	f.Add([]byte(`{"kind":"MessageEvent","id":"e1","llm_message":{"role":"user","content":[{"type":"text","text":"key `+key+`"}]}}`), key)
	f.Add([]byte(`{"kind":"ObservationEvent","id":"e2","text":"\u0073k-oh-5f1b4a7e9d3c2b1a0f9e8d7c"}`), key)
	f.Add([]byte(`{"kind":"MessageEvent","id":"e3"}`), "k")
	f.Fuzz(func(t *testing.T, raw []byte, secret string) {
		in := bytes.Clone(raw)
		out := JSON(raw, secret)
		if !bytes.Equal(raw, in) {
			t.Fatal("RedactJSON changed its input")
		}
		if bytes.Equal(out, raw) {
			if len(out) > 0 && &out[0] != &raw[0] {
				t.Fatal("an unchanged event was copied")
			}
			return
		}
		if len(secret) >= minPartial && !strings.ContainsAny(asciiLower(secret), Redacted) &&
			strings.Contains(asciiLower(string(out)), asciiLower(secret)) {
			t.Fatalf("RedactJSON(%q, %q) = %q keeps the secret", raw, secret, out)
		}
	})
}
