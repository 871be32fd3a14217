package compare

// Myers's O(ND) difference algorithm ("An O(ND) Difference Algorithm and
// Its Variations", 1986), in its linear-space form: the middle snake of
// the forward and backward searches splits the problem in two, each solved
// the same way. Before it runs, the common prefix and suffix are matched
// and every element that occurs on one side only is set aside (it can
// match nothing), which for two runs that share little leaves little to
// search. A search whose edit distance passes costLimit splits at the
// furthest point the forward search reached instead of the middle snake:
// the result is then a common subsequence, not always a longest one, and
// the time is bounded by O((N+M)·costLimit).

// costLimit bounds the edit distance a single middle-snake search explores:
// 256 keeps two unrelated 10,000-step runs at about 33 ms of CPU (1024 took
// 104 ms), and a search that short of the limit is exact.
const costLimit = 256

// lcs returns the pairs (i, j) with a[i] == b[j] of a common subsequence
// of a and b, in order: a longest one unless costLimit cut a search short.
func lcs(a, b []uint64) [][2]int {
	var out [][2]int
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		out = append(out, [2]int{pre, pre})
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	midA, midB := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(midA) > 0 && len(midB) > 0 {
		ra, ia, rb, ib := discardUnmatched(midA, midB)
		d := &differ{a: ra, b: rb}
		d.compare(0, len(ra), 0, len(rb))
		for _, m := range d.out {
			out = append(out, [2]int{pre + ia[m[0]], pre + ib[m[1]]})
		}
	}
	for k := suf; k > 0; k-- {
		out = append(out, [2]int{len(a) - k, len(b) - k})
	}
	return out
}

// discardUnmatched keeps the elements of a that occur in b and those of b
// that occur in a, with their original positions.
func discardUnmatched(a, b []uint64) (ra []uint64, ia []int, rb []uint64, ib []int) {
	inB := make(map[uint64]struct{}, len(b))
	for _, v := range b {
		inB[v] = struct{}{}
	}
	inA := make(map[uint64]struct{}, len(a))
	for i, v := range a {
		if _, ok := inB[v]; ok {
			ra, ia = append(ra, v), append(ia, i)
			inA[v] = struct{}{}
		}
	}
	for j, v := range b {
		if _, ok := inA[v]; ok {
			rb, ib = append(rb, v), append(ib, j)
		}
	}
	return ra, ia, rb, ib
}

// differ holds one alignment's sequences, its matches so far and the
// search vectors every middle-snake search reuses.
type differ struct {
	a, b   []uint64
	out    [][2]int
	v1, v2 []int
}

// compare matches a[aLo:aHi] against b[bLo:bHi], appending the matches in
// order.
func (d *differ) compare(aLo, aHi, bLo, bHi int) {
	for aLo < aHi && bLo < bHi && d.a[aLo] == d.b[bLo] {
		d.out = append(d.out, [2]int{aLo, bLo})
		aLo, bLo = aLo+1, bLo+1
	}
	suf := 0
	for aHi > aLo && bHi > bLo && d.a[aHi-1] == d.b[bHi-1] {
		aHi, bHi, suf = aHi-1, bHi-1, suf+1
	}
	if aLo < aHi && bLo < bHi {
		if x, y, ok := d.split(aLo, aHi, bLo, bHi); ok {
			d.compare(aLo, x, bLo, y)
			d.compare(x, aHi, y, bHi)
		}
	}
	for k := 0; k < suf; k++ {
		d.out = append(d.out, [2]int{aHi + k, bHi + k})
	}
}

// split finds where to cut a[aLo:aHi] and b[bLo:bHi] in two: a point of
// the middle snake of a shortest edit script, or, past costLimit, the
// furthest point the forward search reached. ok is false when the two
// have nothing in common.
func (d *differ) split(aLo, aHi, bLo, bHi int) (x, y int, ok bool) {
	n, m := aHi-aLo, bHi-bLo
	maxD := min((n+m+1)/2, costLimit)
	off := maxD + 1
	size := 2*off + 1
	if cap(d.v1) < size {
		d.v1, d.v2 = make([]int, size), make([]int, size)
	}
	v1, v2 := d.v1[:size], d.v2[:size]
	for k := range v1 {
		v1[k], v2[k] = -1, -1
	}
	v1[off+1], v2[off+1] = 0, 0
	delta := n - m
	front := delta%2 != 0
	k1start, k1end, k2start, k2end := 0, 0, 0, 0
	a, b := d.a[aLo:aHi], d.b[bLo:bHi]
	for step := 0; step < maxD; step++ {
		for k1 := -step + k1start; k1 <= step-k1end; k1 += 2 {
			i := off + k1
			var x1 int
			if k1 == -step || (k1 != step && v1[i-1] < v1[i+1]) {
				x1 = v1[i+1]
			} else {
				x1 = v1[i-1] + 1
			}
			y1 := x1 - k1
			for x1 < n && y1 < m && a[x1] == b[y1] {
				x1, y1 = x1+1, y1+1
			}
			v1[i] = x1
			switch {
			case x1 > n:
				k1end += 2
			case y1 > m:
				k1start += 2
			case front:
				if j := off + delta - k1; j >= 0 && j < size && v2[j] != -1 && x1 >= n-v2[j] {
					return aLo + x1, bLo + y1, true
				}
			}
		}
		for k2 := -step + k2start; k2 <= step-k2end; k2 += 2 {
			i := off + k2
			var x2 int
			if k2 == -step || (k2 != step && v2[i-1] < v2[i+1]) {
				x2 = v2[i+1]
			} else {
				x2 = v2[i-1] + 1
			}
			y2 := x2 - k2
			for x2 < n && y2 < m && a[n-x2-1] == b[m-y2-1] {
				x2, y2 = x2+1, y2+1
			}
			v2[i] = x2
			switch {
			case x2 > n:
				k2end += 2
			case y2 > m:
				k2start += 2
			case !front:
				if j := off + delta - k2; j >= 0 && j < size && v1[j] != -1 {
					x1 := v1[j]
					y1 := off + x1 - j
					if x1 >= n-x2 {
						return aLo + x1, bLo + y1, true
					}
				}
			}
		}
	}
	if maxD < (n+m+1)/2 {
		return d.furthest(aLo, bLo, n, m, v1, off, maxD)
	}
	return 0, 0, false
}

// furthest is the split past costLimit: the point of the forward search
// furthest along its diagonals, inside the box and short of its far
// corner, so that both halves are smaller than the whole.
func (d *differ) furthest(aLo, bLo, n, m int, v1 []int, off, maxD int) (int, int, bool) {
	best, bx, by := -1, 0, 0
	for k := -maxD; k <= maxD; k++ {
		x := v1[off+k]
		if x < 0 {
			continue
		}
		y := x - k
		if x > n || y < 0 || y > m || (x == n && y == m) {
			continue
		}
		if x+y > best {
			best, bx, by = x+y, x, y
		}
	}
	if best <= 0 {
		return 0, 0, false
	}
	return aLo + bx, bLo + by, true
}
