package redact

import (
	"math"
	"sort"
	"strings"
	"sync"

	"ohwatch/internal/jsonx"
)

// Redacted is what stands in for a secret in redacted text.
const Redacted = "[redacted]"

// minPartial is the shortest piece of a secret that is redacted on its
// own: a server that echoes a key cut short (or a log that truncates it)
// still gives away most of it. Shorter pieces are ordinary text. It is
// also the size of the grams redactOne rolls through a uint64: 8.
const minPartial = 8

// Text removes every secret from s in each form a server or a library is
// known to echo it in: as is, in another case, URL-encoded (%73%6B…),
// JSON- or Python-escaped (\u0073, \x73, \/), base64 (standard or URL
// alphabet, at any alignment: inside "Bearer KEY" encoded), hex (either
// case) or reversed, and in part (any run of at least half the secret, or
// of its encoded form, and at least minPartial bytes). Each echo becomes
// Redacted. A secret shorter than minPartial is redacted only as written
// and only where it stands as a token of its own (see redactToken); empty
// secrets are ignored.
func Text(s string, secrets ...string) string {
	for _, secret := range secrets {
		s = redactSecret(s, secret, nil)
	}
	return s
}

// redactSecret is Text of one secret; r is its prepared redactor, nil
// to prepare it now (a caller that redacts more than once keeps it in a
// Secrets).
func redactSecret(s, secret string, r *redactor) string {
	if len(secret) < minPartial {
		// Too short to tell from ordinary text in another case or
		// encoding (no real key is): only its exact echo goes.
		return redactToken(s, secret)
	}
	if r == nil {
		r = newRedactor(secret)
	}
	// As written first, then decoded: an escape can hide the secret, and
	// the secret can hold what reads as an escape. Each pass looks for
	// every encoding a server may echo it in at once.
	plain, decoded := r.mayHold(s)
	if plain {
		s = redactOne(s, r, false)
		_, decoded = r.mayHold(s) // what is left, decoded
	}
	if decoded {
		s = redactOne(s, r, true)
	}
	return s
}

// redactToken redacts the exact echoes of a short secret that stand as
// tokens of their own: not inside a run of the characters keys are made
// of. A test server's key "k" is in every "kind" and "think"; redacting
// each one turned every line into "thin[redacted]" and every event's JSON
// into an unknown kind, and hid nothing: a key that short is no secret,
// but where it is echoed as a key ("Bearer k", "key=k", "\"k\"") it goes.
//
// A secret that begins or ends with another character (`0\`) has no
// word to be inside of; redacting one echo could make the one next to it
// stand alone. It goes wherever it is written.
func redactToken(s, secret string) string {
	if secret == "" || !strings.Contains(s, secret) {
		return s
	}
	if !isKeyByte(secret[0]) || !isKeyByte(secret[len(secret)-1]) {
		return strings.ReplaceAll(s, secret, Redacted)
	}
	var b strings.Builder
	last := 0
	for i := 0; i+len(secret) <= len(s); {
		at := strings.Index(s[i:], secret)
		if at < 0 {
			break
		}
		at += i
		end := at + len(secret)
		if (at == 0 || !isKeyByte(s[at-1])) && (end == len(s) || !isKeyByte(s[end])) {
			b.WriteString(s[last:at])
			b.WriteString(Redacted)
			last = end
			i = end
			continue
		}
		i = at + 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// isKeyByte reports whether c is one of the characters session and API
// keys are made of (letters, digits, '-' and '_').
func isKeyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

// redactOne redacts one secret in each of its forms. The text is brought into a normal form
// (ASCII lowercased and, with decode, escapes resolved) with, for every
// normal byte, the span of the original it came from; runs of the normal
// form that are pieces of the lowercased secret are replaced in the
// original. Every such run starts with one of the secret's minPartial-byte
// grams, so a bit set of their hashes finds the few places worth
// comparing in one pass over the text.
func redactOne(s string, r *redactor, decode bool) string {
	if len(r.keys) == 0 || len(s) < r.least || decode && (!strings.ContainsAny(s, `%\`) || len(s) > math.MaxInt32) {
		return s // too short to hold a piece, nothing to decode, or too long to decode
	}
	var norm []byte
	var esc escapes // empty: the identity (no decoding)
	if decode {
		norm, esc = normalise(s)
	} else {
		norm = []byte(asciiLower(s))
	}
	var spans [][2]int
	// g holds norm[i:i+minPartial], rolled one byte at a time (a uint64
	// holds exactly minPartial bytes, so the oldest falls off the top).
	var g uint64
	have := 0
	for i := 0; i+r.least <= len(norm); {
		for ; have < minPartial; have++ {
			g = g<<8 | uint64(norm[i+have])
		}
		best := 0
		if r.grams.has(g) {
			for _, k := range r.exact[g] {
				if n := longestPiece(norm[i:], r.keys[k]); n >= r.needs[k] {
					best = max(best, n)
				}
			}
		}
		if best == 0 {
			i, have = i+1, have-1
			continue
		}
		have = 0
		start, end := esc.from(i), esc.to(i+best-1)
		if k := len(spans) - 1; k >= 0 && spans[k][1] >= start {
			spans[k][1] = end
		} else {
			spans = append(spans, [2]int{start, end})
		}
		i += best
	}
	if spans == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		b.WriteString(Redacted)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// mayHold reports whether s may hold a piece of the secret in each of
// the normal forms redactOne builds: as written (plain) and with escapes
// decoded. It is the cheap pass every text takes, so that redacting every
// event a live agent-server sends costs a fraction of decoding it (building
// the normal form and its spans, 16 bytes per byte of text, cost five
// times the decoding); in clean text it allocates nothing.
func (r *redactor) mayHold(s string) (plain, decoded bool) {
	plain = r.mayHoldPlain(s)
	return plain, plain || r.mayHoldDecoded(s)
}

// mayHoldPlain looks for one of the secret's grams in s lowercased, not at
// every place but at every stride-th: a piece is at least r.least bytes
// long, so the grams of its first r.least-minPartial+1 places are all
// grams of the secret (of its form), and one of those places is a
// multiple of the stride. Each gram looked at is loaded whole.
func (r *redactor) mayHoldPlain(s string) bool {
	stride := max(1, r.least-minPartial+1)
	for end := minPartial; end <= len(s); end += stride {
		if r.hit(lowerGram(s[end-minPartial : end])) {
			return true
		}
	}
	return false
}

// mayHoldDecoded looks for a piece that only decoding shows: one holding
// an escape that decodes to another byte (a piece without one is in the
// plain form as well, where mayHoldPlain finds it). Such a piece is at
// least minPartial bytes long, so one of the minPartial grams that hold
// the escape's byte is all inside it: those are the only grams looked at.
// Runs without an escape are skipped whole, their last bytes loaded as
// the gram they leave.
func (r *redactor) mayHoldDecoded(s string) bool {
	var g uint64
	n := 0        // decoded bytes rolled into g
	checkTo := -1 // every gram up to this count is looked at
	for i := 0; i < len(s); {
		c := s[i]
		if c != '%' && c != '\\' && n >= checkTo {
			j := strings.IndexAny(s[i:], `%\`)
			if j < 0 {
				return false
			}
			j += i
			if j-i >= minPartial {
				g = lowerGram(s[j-minPartial : j])
			} else {
				for _, b := range []byte(s[i:j]) {
					g = g<<8 | uint64(LowerASCII(b))
				}
			}
			n, i = n+j-i, j
			continue
		}
		step := 1
		if c == '%' || c == '\\' {
			d, m := decodeAt(s, i)
			if m > 1 {
				checkTo = n + minPartial // this byte's count and the 7 after it
			}
			c, step = d, m
		}
		g = g<<8 | uint64(LowerASCII(c))
		n++
		i += step
		if n >= minPartial && n <= checkTo && r.hit(g) {
			return true
		}
	}
	return false
}

// LowerASCII lowercases an ASCII letter and leaves every other byte: the
// case folding of redaction and of the event search.
func LowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// lowerGram is the gram of minPartial bytes, ASCII letters lowercased (as
// gram of asciiLower), eight bytes at once.
func lowerGram(b string) uint64 {
	w := uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 |
		uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
	const high = jsonx.Ones * 0x80
	seven := w &^ high                     // each byte's low seven bits
	geA := seven + jsonx.Ones*(0x80-'A')   // high bit: byte >= 'A'
	gtZ := seven + jsonx.Ones*(0x80-'Z'-1) // high bit: byte > 'Z'
	upper := (geA &^ gtZ) &^ w & high      // ASCII and in 'A'..'Z'
	return w | upper>>2                    // 0x80>>2 is the 0x20 of lower case
}

// hit reports whether g is one of the secret's grams.
func (r *redactor) hit(g uint64) bool { return r.grams.has(g) && len(r.exact[g]) > 0 }

// longestPiece is the length of the longest prefix of text that occurs in
// key.
func longestPiece[T string | []byte](text T, key string) int {
	best := 0
	for j := 0; j < len(key); j++ {
		n := 0
		for n < len(text) && j+n < len(key) && text[n] == key[j+n] {
			n++
		}
		best = max(best, n)
	}
	return best
}

// gram packs the first minPartial bytes of b.
func gram[T string | []byte](b T) uint64 {
	var g uint64
	for k := range minPartial {
		g = g<<8 | uint64(b[k])
	}
	return g
}

// gramSet is a bit set of gram hashes: a miss is certain, a hit is checked
// by longestPiece.
type gramSet [1024]uint64

func gramBit(g uint64) uint64 { return (g * 0x9E3779B97F4A7C15) >> 48 }

func (s *gramSet) add(g uint64)      { b := gramBit(g); s[b>>6] |= 1 << (b & 63) }
func (s *gramSet) has(g uint64) bool { b := gramBit(g); return s[b>>6]&(1<<(b&63)) != 0 }

// asciiLower lowercases ASCII letters only, leaving every other byte (and
// invalid UTF-8) as it is, byte for byte.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// normalise lowercases ASCII and decodes the escapes a secret may be
// echoed in, and says where each normal byte came from (escapes.from and
// to). Only the escapes are noted: a span per normal byte was 16 bytes per
// byte of text, a gigabyte for one 64 MiB event that echoed a key.
func normalise(s string) (norm []byte, esc escapes) {
	norm = make([]byte, 0, len(s))
	esc = make(escapes, 0, countEscapes(s))
	for i := 0; i < len(s); {
		c, n := decodeAt(s, i)
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if n > 1 {
			esc = append(esc, escape{at: int32(len(norm)), src: int32(i), n: int32(n)})
		}
		norm = append(norm, c)
		i += n
	}
	return norm, esc
}

// escapes are the decoded escapes of a normal form, in order: every other
// normal byte is one byte of the original, at the same distance from the
// escape before it.
type escapes []escape

// escape is one: normal byte at came from s[src:src+n]. Offsets are
// 32-bit: Redact is given lines and events, never 2 GB at once (longer
// text is redacted as written only, see redactOne).
type escape struct{ at, src, n int32 }

// countEscapes is how many escapes normalise will note in s, so that
// their list is made once at its size.
func countEscapes(s string) int {
	count := 0
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], `%\`)
		if j < 0 {
			break
		}
		i += j
		_, n := decodeAt(s, i)
		if n > 1 {
			count++
		}
		i += n
	}
	return count
}

// from is where in the original normal byte i begins.
func (e escapes) from(i int) int {
	k := e.last(i)
	switch {
	case k < 0:
		return i // before the first escape, byte for byte
	case int(e[k].at) == i:
		return int(e[k].src)
	}
	return int(e[k].src+e[k].n) + (i - int(e[k].at) - 1)
}

// to is where in the original normal byte i ends.
func (e escapes) to(i int) int {
	if k := e.last(i); k >= 0 && int(e[k].at) == i {
		return int(e[k].src + e[k].n)
	}
	return e.from(i) + 1
}

// last is the index of the last escape at or before normal byte i, -1
// when there is none.
func (e escapes) last(i int) int {
	return sort.Search(len(e), func(k int) bool { return int(e[k].at) > i }) - 1
}

// decodeAt decodes the byte at s[i]: an escape (%XX, \xXX, \uXXXX for an
// ASCII character, a backslash before punctuation) gives the byte it
// stands for; anything else is itself. n is how many bytes of s it took.
func decodeAt(s string, i int) (c byte, n int) {
	switch s[i] {
	case '%':
		if v, ok := hexByte(s, i+1, 2); ok {
			return v, 3
		}
	case '\\':
		if i+1 >= len(s) {
			break
		}
		switch next := s[i+1]; {
		case next == 'x':
			if v, ok := hexByte(s, i+2, 2); ok {
				return v, 4
			}
		case next == 'u':
			if v, ok := hexByte(s, i+2, 4); ok {
				return v, 6
			}
		case next == '/' || next == '\\' || next == '"' || next == '\'' || next == '-' || next == '.':
			return next, 2
		}
	}
	return s[i], 1
}

// hexByte reads digits hex digits at s[i:] as one ASCII byte; ok is false
// when they are not hex or stand for more than ASCII.
func hexByte(s string, i, digits int) (byte, bool) {
	if i+digits > len(s) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(s[i : i+digits]) {
		switch {
		case '0' <= c && c <= '9':
			v = v*16 + int(c-'0')
		case 'a' <= c && c <= 'f':
			v = v*16 + int(c-'a'+10)
		case 'A' <= c && c <= 'F':
			v = v*16 + int(c-'A'+10)
		default:
			return 0, false
		}
	}
	if v > 0x7f {
		return 0, false
	}
	return byte(v), true
}

// Secrets is a set of secrets that grows as they are learnt (a Cloud
// sandbox hands out its session key mid-run), safe for concurrent use.
// Each secret's forms are prepared once, as it is added, and kept by the
// set: its owner (a session, a client, a fleet's feed) redacts with them
// for as long as it lives, whatever other owners redact, with no lock
// shared between them.
type Secrets struct {
	mu   sync.Mutex
	list []learntSecret
}

// learntSecret is a secret and its prepared redactor (nil for a secret
// shorter than minPartial, which has no forms).
type learntSecret struct {
	text string
	r    *redactor
}

// Add learns a secret; empty strings are ignored.
func (s *Secrets) Add(secret string) {
	if s == nil || secret == "" || s.knows(secret) {
		return
	}
	l := learntSecret{text: secret}
	if len(secret) >= minPartial {
		l.r = newRedactor(secret) // outside the lock: readers go on meanwhile
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, known := range s.list {
		if known.text == secret {
			return
		}
	}
	s.list = append(s.list, l)
}

// knows reports whether the set holds secret.
func (s *Secrets) knows(secret string) bool {
	for _, known := range s.learnt() {
		if known.text == secret {
			return true
		}
	}
	return false
}

// Redact removes every secret learnt so far from text (see Text). A nil
// set redacts nothing.
func (s *Secrets) Redact(text string) string {
	for _, l := range s.learnt() {
		text = redactSecret(text, l.text, l.r)
	}
	return text
}

// Any reports whether the set holds a secret.
func (s *Secrets) Any() bool { return len(s.learnt()) > 0 }

// learnt is the secrets learnt so far (none for a nil set). The list only
// grows by appending, so the slice taken under the lock stays valid.
func (s *Secrets) learnt() []learntSecret {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.list
}
