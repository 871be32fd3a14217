package tui

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"
	"unsafe"
)

// matcher finds a query in event text. Smart case: a query with no
// capital letter matches any ASCII case, one with a capital matches
// exactly (bytes.Index, already linear).
//
// A case-insensitive search looks for the query's rarest byte, in either
// case, and compares the whole query only where that byte is: with
// bytes.IndexByte while the byte is rare in the text, else eight bytes at
// a time (a branch-free test per word). The text is never copied or
// lower-cased as a whole, so a search costs about what reading the text
// costs. Should the comparisons add up (a text made
// of near-matches), the rest of the text is searched by lower-casing it a
// window at a time and using bytes.Index, which is linear whatever the
// text: the work stays proportional to the text's length.
type matcher struct {
	needle []byte // lower case when fold
	query  string // the needle as a string, for an exact search
	fold   bool
	// anchor is the position in the needle of its rarest byte, check that
	// of the next rarest, compared before the whole needle.
	anchor, check int
	// The rarest byte by a guess may be common in this text ('9' among
	// hex ids): the first few anchors are tried on the text, and the one
	// that turns out cheapest is kept (search_anchor.go).
	trial anchorTrial
	buf   []byte // the fallback's lower-cased window, reused
}

// foldWindow is how much text the fallback lower-cases at a time: small
// enough to stay in the CPU's cache between folding and searching it.
const foldWindow = 32 << 10

// maxQueryLen bounds a query in bytes; the overlap of the fallback's
// windows must stay well below foldWindow.
const maxQueryLen = 1024

// newMatcher prepares query (at most maxQueryLen bytes are used).
func newMatcher(query string) *matcher {
	if len(query) > maxQueryLen {
		query = query[:maxQueryLen]
	}
	m := &matcher{needle: []byte(query), query: query}
	m.fold = strings.ToLower(query) == query && hasASCIILetter(query)
	m.trial = newAnchorTrial(m.needle)
	m.anchor, m.check = m.trial.current()
	return m
}

// hasASCIILetter reports whether s has a letter whose case folding
// changes: without one a case-insensitive search is a plain one.
func hasASCIILetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; 'a' <= c && c <= 'z' {
			return true
		}
	}
	return false
}

// byteOrder lists bytes from the most to the least common in event text
// (English, JSON, logs, code); the rest are rarer still.
const byteOrder = ` "etaoinsr:,lhdcu0m1p2f.gy-w_b{}v53k4689x7/\jqz=()[]'<>`

// byteRank estimates how common a byte is in event text: higher is more
// common. A letter counts for both its cases.
func byteRank(c byte) int {
	if 'A' <= c && c <= 'Z' {
		c += 'a' - 'A'
	}
	if k := strings.IndexByte(byteOrder, c); k >= 0 {
		return len(byteOrder) - k
	}
	return 0
}

// matchString reports whether s contains the query.
func (m *matcher) matchString(s string) bool {
	if !m.fold {
		return strings.Contains(s, m.query)
	}
	// The text is only read: viewing the string's bytes copies nothing.
	return m.foldScan(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// matchBytes reports whether b contains the query.
func (m *matcher) matchBytes(b []byte) bool {
	if !m.fold {
		return bytes.Contains(b, m.needle)
	}
	return m.foldScan(b)
}

const (
	ones  = 0x0101010101010101
	lows  = 0x7f7f7f7f7f7f7f7f
	highs = 0x8080808080808080
)

// foldScan is the case-insensitive search: candidates where the anchor
// byte is, in either case, then the check byte, then the whole needle.
func (m *matcher) foldScan(hay []byte) bool {
	found := m.foldScanAt(hay)
	m.observe(len(hay))
	return found
}

// foldScanAt is foldScan with the current anchor.
func (m *matcher) foldScanAt(hay []byte) bool {
	n := len(m.needle)
	if len(hay) < n {
		return false
	}
	k := m.anchor
	c := m.needle[k]
	var or byte
	if 'a' <= c && c <= 'z' {
		// b|0x20 == c holds for c and its capital only.
		or = 0x20
	}
	want, orMask := uint64(c)*ones, uint64(or)*ones
	last := len(hay) - n + k // the last place the anchor can be
	// zeros has the top bit of a byte set exactly where the word, folded
	// as the anchor is, holds the anchor.
	zeros := func(w uint64) uint64 {
		x := (w | orMask) ^ want
		return ^((x&lows + lows) | x | lows)
	}
	// While the anchor is rare, memchr-like jumps (bytes.IndexByte, the
	// CPU's vector instructions) find it fastest; once it turns out to be
	// common here, the word-at-a-time scan below takes over.
	p, found := m.jumpScan(hay, c, or, last)
	if found {
		return true
	}
	work := 0
	for ; p+32 <= last+1; p += 32 {
		// Four words per round, with one branch when none holds the
		// anchor (the common case).
		w := hay[p : p+32 : p+32]
		z0 := zeros(binary.LittleEndian.Uint64(w[0:]))
		z1 := zeros(binary.LittleEndian.Uint64(w[8:]))
		z2 := zeros(binary.LittleEndian.Uint64(w[16:]))
		z3 := zeros(binary.LittleEndian.Uint64(w[24:]))
		if z0|z1|z2|z3 == 0 {
			continue
		}
		for q, z := range [4]uint64{z0, z1, z2, z3} {
			for ; z != 0; z &= z - 1 {
				m.trial.cands++
				if m.verify(hay, p+8*q+bits.TrailingZeros64(z)>>3-k) {
					return true
				}
				work += n
			}
		}
		if work > 4*p+4096 {
			return m.foldWindows(hay[p-k:])
		}
	}
	for ; p <= last; p++ {
		if hay[p]|or == c && m.verify(hay, p-k) {
			return true
		}
	}
	return false
}

// jumpScan looks for the anchor byte c (and its capital when or is 0x20)
// with bytes.IndexByte, verifying each place it is, until past last or
// until the places outnumber one in 64 bytes: it returns where it stopped.
func (m *matcher) jumpScan(hay []byte, c, or byte, last int) (int, bool) {
	k := m.anchor
	p := k
	next := func(b byte, from int) int {
		if j := bytes.IndexByte(hay[from:last+1], b); j >= 0 {
			return from + j
		}
		return last + 1
	}
	lo, up := next(c, p), last+1
	if or != 0 {
		up = next(c-or, p)
	}
	for found := 0; ; found++ {
		p = min(lo, up)
		if p > last {
			return p, false
		}
		m.trial.cands++
		if found > 16+(p>>6) {
			return p, false
		}
		if m.verify(hay, p-k) {
			return p, true
		}
		if p == lo {
			lo = next(c, p+1)
		} else {
			up = next(c-or, p+1)
		}
	}
}

// verify compares the needle with hay at start, folding case.
func (m *matcher) verify(hay []byte, start int) bool {
	if lowerByte(hay[start+m.check]) != m.needle[m.check] {
		return false
	}
	for j, c := range m.needle {
		if lowerByte(hay[start+j]) != c {
			return false
		}
	}
	return true
}

// lowerByte lower-cases an ASCII letter.
func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// foldWindows is the fallback: lower-case a window, search it with
// bytes.Index, move on by a window less the needle's length.
func (m *matcher) foldWindows(hay []byte) bool {
	n := len(m.needle)
	if len(hay) < n {
		return false
	}
	for start := 0; ; {
		end := min(start+foldWindow, len(hay))
		if cap(m.buf) < end-start {
			m.buf = make([]byte, foldWindow)
		}
		w := m.buf[:end-start]
		copy(w, hay[start:end])
		lowerASCII(w)
		if bytes.Index(w, m.needle) >= 0 {
			return true
		}
		if end == len(hay) {
			return false
		}
		start = end - (n - 1)
	}
}

// lowerASCII lower-cases the ASCII letters of b in place, eight bytes at a
// time: for each byte it computes, without branches, whether it lies in
// 'A'..'Z' (and is ASCII), and sets the 0x20 bit of those that do.
// Bytes of multi-byte UTF-8 sequences are left as they are.
func lowerASCII(b []byte) {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		low := w & lows
		geA := low + (0x80-'A')*ones     // top bit set where low >= 'A'
		gtZ := low + (0x80-'Z'-1)*ones   // top bit set where low > 'Z'
		upper := geA &^ gtZ &^ w & highs // and the byte is ASCII
		if upper != 0 {
			binary.LittleEndian.PutUint64(b[i:], w|upper>>2)
		}
	}
	for ; i < len(b); i++ {
		b[i] = lowerByte(b[i])
	}
}
