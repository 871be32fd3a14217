package conversation

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"

	"ohwatch/internal/arena"
	"ohwatch/internal/redact"
)

// matcher finds a query in event text. Smart case: a query with no
// capital letter matches any ASCII case, one with a capital matches
// exactly (bytes.Index, already linear).
//
// A case-insensitive search looks for the query's rarest byte, in either
// case, and compares the whole query only where that byte is, jumping
// there with bytes.IndexByte while the byte is rare in the text. Where it
// is not, the pair scan looks for that byte and a second one at their
// distance in the query, 32 bytes of text at a time with a
// branch-free test per word, and compares the query only where both are.
// The text is never copied or lower-cased as a whole, so a search costs
// little more than reading the text. Should the comparisons add up (a
// text made of near-matches), the rest of the text is searched by
// lower-casing it a window at a time and using bytes.Index, which is
// linear whatever the text: the work stays proportional to its length.
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
	return m.foldScan(arena.Bytes(s))
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
// A short text is tried start by start, and left out of the anchor trial.
func (m *matcher) foldScan(hay []byte) bool {
	if len(hay) < shortText {
		return m.shortScan(hay)
	}
	found := m.foldScanAt(hay)
	m.observe(len(hay))
	return found
}

// foldScanAt is foldScan with the current anchor: jumps from one place
// of the anchor byte to the next while that byte is rare, else (the trial
// found it common, or it turns out common in this text) the pair scan.
func (m *matcher) foldScanAt(hay []byte) bool {
	n := len(m.needle)
	if len(hay) < n {
		return false
	}
	k := m.anchor
	if m.trial.pairs && len(hay) < jumpFirst {
		return m.pairScan(hay, 0)
	}
	c := m.needle[k]
	p, found := m.jumpScan(hay, c, foldBit(c), len(hay)-n+k)
	if found {
		return true
	}
	if p-k < len(hay)-n {
		m.trial.pairBytes += len(hay) - (p - k)
	}
	return m.pairScan(hay, p-k)
}

// jumpFirst is the length from which a text is searched by jumps first
// even when the trial settled on the pair scan: a large text may be unlike
// the ones the trial saw (a log whose lines hold none of the anchor), and
// the jumps give way to the pair scan after a few places of a common byte.
const jumpFirst = 64 << 10

// shortText is the length below which a text (most summaries) is
// searched by shortScan: setting up jumps or the pair scan costs more
// than trying each start.
const shortText = 128

// shortScan tries each start of a short text, comparing the anchor and
// check bytes before the needle (at most shortText × maxQueryLen steps).
func (m *matcher) shortScan(hay []byte) bool {
	ka, kb := m.anchor, m.check
	ca, cb := m.needle[ka], m.needle[kb]
	fa, fb := foldBit(ca), foldBit(cb)
	for s := 0; s+len(m.needle) <= len(hay); s++ {
		if hay[s+ka]|fa == ca && hay[s+kb]|fb == cb && m.verify(hay, s) {
			return true
		}
	}
	return false
}

// foldBit is 0x20 for a lower-case letter, whose capital differs by that
// bit (b|0x20 == c holds for c and its capital only), else 0.
func foldBit(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return 0x20
	}
	return 0
}

// pairScan tries every start from s on: pairProbe.find looks for the
// starts that have both the anchor byte and the check byte (in either
// case), and the needle is compared only there. A pair of bytes is rare
// where each byte alone is not ('9' among hex ids), so the needle is
// rarely compared, and the scan keeps streaming through memory, which
// jumps from one place of a common byte to the next do not. Should the
// comparisons add up anyway (a text made of near-matches), the rest is
// left to foldWindows.
func (m *matcher) pairScan(hay []byte, s int) bool {
	n, ka, kb := len(m.needle), m.anchor, m.check
	ca, cb := m.needle[ka], m.needle[kb]
	p := pairProbe{uint64(ca) * ones, uint64(foldBit(ca)) * ones, uint64(cb) * ones, uint64(foldBit(cb)) * ones}
	end := len(hay) - n + 1 // one past the last start
	from, work := s, 0
	for s+pairBlock <= end {
		// The anchor's bytes for the starts s.. are at s+ka.., the
		// check's at s+kb..
		d, z := p.find(hay[s+ka:end+ka], hay[s+kb:end+kb])
		if s += d; z == [4]uint64{} {
			break
		}
		if m.verifyPairs(hay, s, z) {
			return true
		}
		s += pairBlock
		for _, w := range z {
			work += n * bits.OnesCount64(w)
		}
		if work > 4*(s-from)+4096 {
			return m.foldWindows(hay[s:])
		}
	}
	if s >= end {
		return false
	}
	if end >= pairBlock {
		// The last starts, as one more block that ends at end, less
		// those already tried.
		last := end - pairBlock
		_, z := p.find(hay[last+ka:end+ka], hay[last+kb:end+kb])
		for q, tried := 0, s-last; q < 4 && tried > 0; q, tried = q+1, tried-8 {
			z[q] &^= 1<<(8*min(tried, 8)) - 1
		}
		return m.verifyPairs(hay, last, z)
	}
	for ; s < end; s++ {
		if hay[s+ka]|byte(p.oa) == ca && m.verify(hay, s) {
			return true
		}
	}
	return false
}

// pairBlock is how many starts pairProbe.find tries at a time.
const pairBlock = 32

// pairProbe is a pair scan's two bytes, each repeated in a word, with the
// bit that folds its case (0x20 in every byte for a letter).
type pairProbe struct{ wa, oa, wb, ob uint64 }

// find reads a and b (the same length) pairBlock bytes at a time and
// returns the first offset d (a multiple of pairBlock) where some j has
// a[d+j] and b[d+j] both matching: bit 8j+7 of the word z[j/8] is set for
// each such j, and for no j that does not match but may be set above one
// that does. With none, d is where it stopped and z is zero. It is its
// own small function so that its loop keeps everything in registers.
func (p pairProbe) find(a, b []byte) (d int, z [4]uint64) {
	b = b[:len(a)]
	if p.oa|p.ob == 0 {
		// Neither byte folds: the same test, two operations less
		// per word (the trial picks such a pair when it can).
		for ; d+pairBlock <= len(a); d += pairBlock {
			wa, wb := a[d:d+pairBlock:d+pairBlock], b[d:d+pairBlock:d+pairBlock]
			if ((p.xExact(wa, wb, 0)-ones)|(p.xExact(wa, wb, 8)-ones)|(p.xExact(wa, wb, 16)-ones)|(p.xExact(wa, wb, 24)-ones))&highs != 0 {
				break
			}
		}
	}
	for ; d+pairBlock <= len(a); d += pairBlock {
		wa, wb := a[d:d+pairBlock:d+pairBlock], b[d:d+pairBlock:d+pairBlock]
		// A byte of x is zero exactly where both bytes match. A cheaper
		// test first, exact while the text is ASCII: a byte less one has
		// its top bit set if it was zero (or was above 0x80, which no
		// ASCII byte is).
		if ((p.x(wa, wb, 0)-ones)|(p.x(wa, wb, 8)-ones)|(p.x(wa, wb, 16)-ones)|(p.x(wa, wb, 24)-ones))&highs == 0 {
			continue
		}
		for q := range z {
			x := p.x(wa, wb, 8*q)
			z[q] = (x - ones) &^ x & highs
		}
		if z != [4]uint64{} {
			return d, z
		}
	}
	return d, z
}

// xExact is x for two bytes that do not fold.
func (p pairProbe) xExact(a, b []byte, off int) uint64 {
	return (binary.LittleEndian.Uint64(a[off:]) ^ p.wa) | (binary.LittleEndian.Uint64(b[off:]) ^ p.wb)
}

// x is zero in the bytes where both words at off (of a and of b) match.
func (p pairProbe) x(a, b []byte, off int) uint64 {
	return ((binary.LittleEndian.Uint64(a[off:]) | p.oa) ^ p.wa) | ((binary.LittleEndian.Uint64(b[off:]) | p.ob) ^ p.wb)
}

// verifyPairs compares the needle at the starts s+j whose bit 8j+7 is set
// in z[j/8].
func (m *matcher) verifyPairs(hay []byte, s int, z [4]uint64) bool {
	for q, w := range z {
		for ; w != 0; w &= w - 1 {
			if m.verify(hay, s+8*q+bits.TrailingZeros64(w)>>3) {
				return true
			}
		}
	}
	return false
}

// jumpDensity: a search jumps to the next place of its anchor byte while
// that byte is in fewer than one byte in jumpDensity of the text; past
// that, a jump (a call, a restart) costs more than the pair scan.
const jumpDensity = 128

// jumpScan looks for the anchor byte c (and its capital when or is 0x20)
// with bytes.IndexByte, verifying each place it is, until past last or
// until the places outnumber one in jumpDensity bytes: it returns where it
// stopped.
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
		if found > 16+p/jumpDensity {
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
	if redact.LowerASCII(hay[start+m.check]) != m.needle[m.check] {
		return false
	}
	for j, c := range m.needle {
		if redact.LowerASCII(hay[start+j]) != c {
			return false
		}
	}
	return true
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
		if bytes.Contains(w, m.needle) {
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
		b[i] = redact.LowerASCII(b[i])
	}
}
