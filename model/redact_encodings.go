package model

import (
	"encoding/base64"
	"encoding/hex"
	"sync"
)

// encodings are the forms of a secret Redact looks for: the secret itself,
// reversed, in hex, and the part of its base64 that the secret alone
// decides at each of the three alignments it may start at in an encoded
// text (the characters it shares with its neighbours differ with them),
// in the standard and the URL alphabet. Forms shorter than minPartial are
// left out. They are computed once per secret.
func encodings(secret string) []string {
	encodingsMu.Lock()
	defer encodingsMu.Unlock()
	if forms, ok := encodingsOf[secret]; ok {
		return forms
	}
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
	if len(encodingsOf) > 64 {
		clear(encodingsOf) // a process knows a handful of secrets
	}
	encodingsOf[secret] = out
	return out
}

var (
	encodingsMu sync.Mutex
	encodingsOf = map[string][]string{}
)

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
