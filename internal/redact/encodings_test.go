package redact

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

// echoes are the encodings a server was seen to echo a key in, each given
// the whole text the key sits in (the key starts at byte at of it), and
// returning the encoded text and the span of it that the key alone
// decides.
var echoes = map[string]func(text string, at, n int) (string, int, int){
	"base64": func(text string, at, n int) (string, int, int) {
		return base64.StdEncoding.EncodeToString([]byte(text)), (8*at + 5) / 6, 8 * (at + n) / 6
	},
	"base64url": func(text string, at, n int) (string, int, int) {
		return base64.RawURLEncoding.EncodeToString([]byte(text)), (8*at + 5) / 6, 8 * (at + n) / 6
	},
	"hex": func(text string, at, n int) (string, int, int) {
		return hex.EncodeToString([]byte(text)), 2 * at, 2 * (at + n)
	},
	"HEX": func(text string, at, n int) (string, int, int) {
		return strings.ToUpper(hex.EncodeToString([]byte(text))), 2 * at, 2 * (at + n)
	},
	"reversed": func(text string, at, n int) (string, int, int) {
		r := reversed(text)
		return r, len(text) - at - n, len(text) - at
	},
}

// leaked returns a piece of key that out still holds, in any case, of the
// length the partial-key rule redacts for a secret of whole bytes (half
// of it, and minPartial bytes); "" when none.
func leaked(out, key string, whole int) string {
	need := min(len(key), max(minPartial, (whole+1)/2))
	// The marker is not the key's: a key holding "[" must not be found
	// leaking in the marker's own bracket. Keys are printable ASCII, so a
	// NUL in its place can match none of them.
	lower := strings.ToLower(strings.ReplaceAll(out, Redacted, "\x00"))
	for i := 0; i+need <= len(key); i++ {
		if piece := strings.ToLower(key[i : i+need]); strings.Contains(lower, piece) {
			return key[i : i+need]
		}
	}
	return ""
}

// checkEchoes redacts key from every encoding of prefix+key+suffix and
// reports any piece of the encoded key left.
func checkEchoes(t *testing.T, prefix, key, suffix string) {
	t.Helper()
	text := prefix + key + suffix
	for name, encode := range echoes {
		enc, from, to := encode(text, len(prefix), len(key))
		out := Text(enc, key)
		if from < to {
			if piece := leaked(out, enc[from:to], to-from); piece != "" {
				t.Errorf("%s of %q: %q left in %q", name, text, piece, out)
			}
		}
		// The partial-key rule holds for an encoded echo cut short.
		if cut := from + (to-from)*3/4; cut-from >= minPartial {
			if piece := leaked(Text(enc[:cut], key), enc[from:cut], to-from); piece != "" {
				t.Errorf("%s cut short: %q left", name, piece)
			}
		}
	}
}

// TestRedactEncodedEchoes: a 401 body may echo the key in base64 (either
// alphabet, at any alignment, e.g. inside "Bearer KEY"), in hex of either
// case, or reversed; none of it survives.
func TestRedactEncodedEchoes(t *testing.T) {
	for _, key := range []string{"sk-oh-9f8e7d6c5b4a39281706f5e4d3c2b1a0", "0123456789abcdef0123456789ABCDEF", "s3ss10n-k3y?+/=~"} {
		for _, prefix := range []string{"", "B", "Be", "Bearer ", `{"key":"`, "x-session-api-key: "} {
			checkEchoes(t, prefix, key, `", "detail": "unauthorised"}`)
		}
	}
	// Ordinary text, and ordinary base64, stay.
	plain := "the run ended in an error " + base64.StdEncoding.EncodeToString([]byte("hello, world, nothing secret here"))
	if got := Text(plain, "sk-oh-9f8e7d6c5b4a39281706f5e4d3c2b1a0"); got != plain {
		t.Errorf("redacted ordinary text: %q", got)
	}
}

// FuzzRedactEncodings: whatever surrounds a key, no encoding of it
// survives redaction.
func FuzzRedactEncodings(f *testing.F) {
	f.Add("Bearer ", "sk-oh-9f8e7d6c5b4a39281706f5e4d3c2b1a0", "\n")
	f.Add("", "0123456789abcdef", "")
	f.Add("ab", "ZZZZZZZZZZZZZZZZZZZZ", "ab")
	f.Fuzz(func(t *testing.T, prefix, key, suffix string) {
		if len(key) < 16 || len(key) > 96 || len(prefix) > 64 || len(suffix) > 64 {
			return
		}
		for i := 0; i < len(key); i++ {
			if key[i] < 0x21 || key[i] > 0x7e {
				return // keys are printable ASCII
			}
		}
		checkEchoes(t, prefix, key, suffix)
	})
}
