package compare

// Op is what an aligned row says about its two steps.
type Op uint8

// The ops of an aligned row.
const (
	// Same: both sides took this step, with the same arguments and outcome.
	Same Op = iota
	// Changed: both took a step of the same kind and tool here, with other
	// arguments or another outcome.
	Changed
	// OnlyA and OnlyB: one side took a step the other did not.
	OnlyA
	OnlyB
)

// String names the op as the report spells it.
func (o Op) String() string {
	switch o {
	case Same:
		return "same"
	case Changed:
		return "changed"
	case OnlyA:
		return "only in A"
	}
	return "only in B"
}

// Row is one row of the alignment: a step of A, of B, or of both.
type Row struct {
	Op Op
	// A and B are the steps' positions in their sides' step lists, -1 on
	// the side that has a gap.
	A, B int
	// Shared is set when the two steps are one event (the same id).
	Shared bool
}

// Counts are how many rows of each op an alignment has.
type Counts struct {
	Same    int `json:"same"`
	Changed int `json:"changed"`
	OnlyA   int `json:"only_a"`
	OnlyB   int `json:"only_b"`
}

// Alignment is two step lists lined up.
type Alignment struct {
	StepsA, StepsB []Step
	Rows           []Row
	Counts
	// FirstDiff is the first row that is not Same, -1 when none is.
	FirstDiff int
}

// Diverged reports whether the two runs differ at all.
func (al *Alignment) Diverged() bool { return al.FirstDiff >= 0 }

// Align lines a and b up: first the steps both hold by identity from the
// start (a fork's copied prefix), then the rest by Myers's algorithm on
// the steps' keys, and within each stretch the algorithm left unmatched,
// steps of the same kind and tool paired as changed.
func Align(a, b []Step) *Alignment {
	al := &Alignment{StepsA: a, StepsB: b, FirstDiff: -1}
	shared := 0
	for shared < len(a) && shared < len(b) && a[shared].ID != "" && a[shared].ID == b[shared].ID {
		shared++
	}
	al.Rows = make([]Row, 0, max(len(a), len(b))+shared/8)
	for k := range shared {
		al.add(Row{Op: Same, A: k, B: k, Shared: true})
	}
	ka, kb := keys(a[shared:]), keys(b[shared:])
	ia, ib := shared, shared
	for _, m := range lcs(ka, kb) {
		ja, jb := shared+m[0], shared+m[1]
		al.hunk(ia, ja, ib, jb)
		al.add(Row{Op: Same, A: ja, B: jb, Shared: a[ja].ID != "" && a[ja].ID == b[jb].ID})
		ia, ib = ja+1, jb+1
	}
	al.hunk(ia, len(a), ib, len(b))
	return al
}

// keys are the steps' keys, for the difference algorithm.
func keys(steps []Step) []uint64 {
	out := make([]uint64, len(steps))
	for i, s := range steps {
		out[i] = s.key()
	}
	return out
}

// add appends a row and counts it.
func (al *Alignment) add(r Row) {
	switch r.Op {
	case Same:
		al.Same++
	case Changed:
		al.Changed++
	case OnlyA:
		al.OnlyA++
	case OnlyB:
		al.OnlyB++
	}
	if r.Op != Same && al.FirstDiff < 0 {
		al.FirstDiff = len(al.Rows)
	}
	al.Rows = append(al.Rows, r)
}

// pairLimit bounds the stretch (steps of A times steps of B) in which
// changed pairs are found by a longest common subsequence of classes;
// longer stretches pair greedily in order.
const pairLimit = 1 << 14

// hunk adds the rows of a stretch the difference algorithm left
// unmatched, A's steps ia..ja and B's ib..jb: pairs of the same kind and
// tool as changed, the others on their own, A's before B's.
func (al *Alignment) hunk(ia, ja, ib, jb int) {
	if ia == ja && ib == jb {
		return
	}
	baseA, baseB := ia, ib
	for _, p := range classPairs(al.StepsA[ia:ja], al.StepsB[ib:jb]) {
		pa, pb := baseA+p[0], baseB+p[1]
		al.alone(ia, pa, ib, pb)
		al.add(Row{Op: Changed, A: pa, B: pb})
		ia, ib = pa+1, pb+1
	}
	al.alone(ia, ja, ib, jb)
}

// alone adds A's steps ia..ja as only in A, then B's ib..jb as only in B.
func (al *Alignment) alone(ia, ja, ib, jb int) {
	for k := ia; k < ja; k++ {
		al.add(Row{Op: OnlyA, A: k, B: -1})
	}
	for k := ib; k < jb; k++ {
		al.add(Row{Op: OnlyB, A: -1, B: k})
	}
}

// classPairs pairs steps of a and b with the same class, in order.
func classPairs(a, b []Step) [][2]int {
	if len(a) == 0 || len(b) == 0 {
		return nil
	}
	ca, cb := make([]uint64, len(a)), make([]uint64, len(b))
	for i, s := range a {
		ca[i] = s.class()
	}
	for j, s := range b {
		cb[j] = s.class()
	}
	if len(a)*len(b) <= pairLimit {
		return lcs(ca, cb)
	}
	var out [][2]int
	j := 0
	for i := 0; i < len(a) && j < len(b); i++ {
		for k := j; k < len(b) && k < j+64; k++ {
			if ca[i] == cb[k] {
				out = append(out, [2]int{i, k})
				j = k + 1
				break
			}
		}
	}
	return out
}
