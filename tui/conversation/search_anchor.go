package conversation

import (
	"slices"

	"ohwatch/internal/redact"
)

// anchorTrial picks a case-insensitive search's anchor byte from the
// text it searches. The static guess (byteRank) orders the needle's
// distinct bytes; the first few are each used for anchorTrialBytes of
// text while the places they occur are counted, and then the cheapest is
// kept for the rest of the search. A letter costs two passes over the
// text (its two cases), any byte a jump per place it occurs. When even
// the cheapest costs more than the pair scan, the search settles on that.
type anchorTrial struct {
	// choices are anchor and check positions, the likeliest first.
	choices [][2]int
	cur     int
	costs   []float64
	settled bool
	// pairs says the search settled on the pair scan from the start
	// (every anchor tried was too common to jump between).
	pairs bool
	// bytes and cands are the text searched and the places the anchor
	// occurred, since the current choice was made; pairBytes is the part
	// of that text the pair scan read.
	bytes, cands, pairBytes int
}

// anchorTrialBytes is how much text each candidate anchor is tried on.
const anchorTrialBytes = 1 << 20

// anchorTrialChoices is how many anchors are tried.
const anchorTrialChoices = 3

// candidateCost is what a place where the anchor occurs costs, in bytes
// of text read: a jump, a compare.
const candidateCost = 64

// pairCost is what the pair scan costs per byte, in bytes of text read
// by jumps: between an anchor in one byte in 124 ('.' in event text,
// where jumps won in BenchmarkSearch100kPlus50MB) and one in 91 ('9',
// where the pair scan won).
const pairCost = 1.6

// newAnchorTrial lists the needle's distinct bytes, rarest first by the
// static guess, each with its check byte (the rarest other byte value: a
// second copy of the anchor's would tell little, "9999").
func newAnchorTrial(needle []byte) anchorTrial {
	var t anchorTrial
	if len(needle) == 0 {
		t.choices, t.settled = [][2]int{{0, 0}}, true
		return t
	}
	order := make([]int, 0, len(needle))
	seen := map[byte]bool{}
	for k, c := range needle {
		if c = redact.LowerASCII(c); !seen[c] {
			seen[c] = true
			order = append(order, k)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return byteRank(needle[a]) - byteRank(needle[b]) })
	for _, a := range order[:min(len(order), anchorTrialChoices)] {
		check := len(needle) - 1
		if len(order) > 1 {
			for _, c := range order {
				if c != a {
					check = c
					break
				}
			}
		}
		t.choices = append(t.choices, [2]int{a, check})
	}
	t.settled = len(t.choices) == 1
	return t
}

// current is the anchor and check positions to use now.
func (t *anchorTrial) current() (int, int) {
	c := t.choices[t.cur]
	return c[0], c[1]
}

// observe counts n more bytes of text searched with the current anchor,
// and moves on to the next choice, or settles on the best, once the
// current one has seen enough text.
func (m *matcher) observe(n int) {
	t := &m.trial
	if t.settled {
		return
	}
	t.bytes += n
	if t.bytes < anchorTrialBytes {
		return
	}
	passes := 1.0
	if isLetter(m.needle[m.anchor]) {
		passes = 2
	}
	jumped := float64(t.bytes - t.pairBytes)
	t.costs = append(t.costs, (passes*jumped+pairCost*float64(t.pairBytes)+candidateCost*float64(t.cands))/float64(t.bytes))
	t.bytes, t.cands, t.pairBytes = 0, 0, 0
	if len(t.costs) < len(t.choices) {
		t.cur++
	} else {
		t.cur = 0
		for k, c := range t.costs {
			if c < t.costs[t.cur] {
				t.cur = k
			}
		}
		t.settled = true
		if t.pairs = t.costs[t.cur] > pairCost; t.pairs {
			t.choices[t.cur][1] = pairCheck(m.needle, t.choices[t.cur])
		}
	}
	m.anchor, m.check = t.current()
}

// pairCheck is the check byte for the pair scan: when the anchor is not a
// letter, the rarest other byte that is not one either (by the static
// guess), since the scan is cheaper when neither byte folds; else the
// choice's own check.
func pairCheck(needle []byte, choice [2]int) int {
	anchor, check := needle[choice[0]], choice[1]
	if isLetter(redact.LowerASCII(anchor)) {
		return check
	}
	best := -1
	for k, c := range needle {
		if c != anchor && !isLetter(redact.LowerASCII(c)) && (best < 0 || byteRank(c) < byteRank(needle[best])) {
			best = k
		}
	}
	if best < 0 {
		return check
	}
	return best
}

// isLetter reports whether c is a lower-case ASCII letter.
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' }
