package redact

import (
	"encoding/base64"
	"encoding/hex"
)

// encodings are the forms of a secret Redact looks for: the secret itself,
// reversed, in hex, and the part of its base64 that the secret alone
// decides at each of the three alignments it may start at in an encoded
// text (the characters it shares with its neighbours differ with them),
// in the standard and the URL alphabet. Forms shorter than minPartial are
// left out.
func encodings(secret string) []string {
	forms := []string{secret, reversed(secret), hex.EncodeToString([]byte(secret))}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		for align := range 3 {
			forms = append(forms, base64Core(enc, secret, align))
		}
	}
	out := forms[:0]
	for _, f := range forms {
		if len(f) >= minPartial {
			out = append(out, f)
		}
	}
	return out
}

// redactor is what redactOne needs of a secret, prepared once: its forms
// lowercased, the length of the shortest piece of each that is redacted,
// and their minPartial-byte grams, as a bit set that rules most places
// out at once and exactly, with the forms each gram starts a piece of.
type redactor struct {
	keys  []string
	needs []int
	least int
	grams gramSet
	exact map[uint64][]int
}

// newRedactor prepares secret's redactor. Its owner keeps it (Secrets):
// there is no cache shared by all.
func newRedactor(secret string) *redactor {
	r := &redactor{exact: map[uint64][]int{}}
	for k, form := range encodings(secret) {
		key := asciiLower(form)
		need := min(len(key), max(minPartial, (len(key)+1)/2))
		r.keys, r.needs = append(r.keys, key), append(r.needs, need)
		if k == 0 || need < r.least {
			r.least = need
		}
		for j := 0; j+minPartial <= len(key); j++ {
			g := gram(key[j:])
			r.grams.add(g)
			if ks := r.exact[g]; len(ks) == 0 || ks[len(ks)-1] != k {
				r.exact[g] = append(ks, k)
			}
		}
	}
	return r
}

// base64Core is the base64 of secret preceded by align bytes, without the
// characters that depend on the bytes around it: those that hold bits of
// the align bytes before it, or of what follows it.
func base64Core(enc *base64.Encoding, secret string, align int) string {
	buf := make([]byte, align+len(secret))
	copy(buf[align:], secret)
	s := enc.EncodeToString(buf)
	from := (8*align + 5) / 6
	to := 8 * (align + len(secret)) / 6
	if from >= to {
		return ""
	}
	return s[from:to]
}

// reversed is s byte by byte backwards.
func reversed(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
