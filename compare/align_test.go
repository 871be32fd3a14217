package compare

import (
	"math/rand/v2"
	"testing"
)

// lcsLength is the length of a longest common subsequence, by dynamic
// programming: the reference the difference algorithm is held to.
func lcsLength(a, b []uint64) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] > cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// The matches are a common subsequence, and a longest one.
func TestLCSIsALongestCommonSubsequence(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		a, b := make([]uint64, r.IntN(40)), make([]uint64, r.IntN(40))
		alphabet := uint64(1 + r.IntN(6))
		for i := range a {
			a[i] = r.Uint64N(alphabet)
		}
		for i := range b {
			b[i] = r.Uint64N(alphabet)
		}
		got := lcs(a, b)
		li, lj := -1, -1
		for _, m := range got {
			if m[0] <= li || m[1] <= lj || a[m[0]] != b[m[1]] {
				t.Fatalf("a=%v b=%v: bad match %v in %v", a, b, m, got)
			}
			li, lj = m[0], m[1]
		}
		if want := lcsLength(a, b); len(got) != want {
			t.Fatalf("a=%v b=%v: %d matches, a longest common subsequence has %d", a, b, len(got), want)
		}
	}
}

// steps makes action steps of one tool whose arguments are args.
func steps(args ...uint64) []Step {
	out := make([]Step, len(args))
	for i, a := range args {
		out[i] = Step{Event: i, Kind: Action, Tool: "terminal", Args: a, Outcome: OK}
	}
	return out
}

// One step inserted on one side is one row only in B: the steps after it
// still pair as the same, rather than cascading into changes.
func TestAnInsertedStepDoesNotCascade(t *testing.T) {
	a := steps(1, 2, 3, 4, 5, 6, 7, 8)
	b := steps(1, 2, 3, 99, 4, 5, 6, 7, 8)
	al := Align(a, b)
	if al.Counts != (Counts{Same: 8, OnlyB: 1}) || al.FirstDiff != 3 || al.Rows[3].Op != OnlyB {
		t.Fatalf("counts %+v, first diff %d, rows %+v", al.Counts, al.FirstDiff, al.Rows)
	}
}

// The same tool with other arguments, or another outcome, is changed; a
// step of another kind or tool is only on its side.
func TestChangedPairsTheSameTool(t *testing.T) {
	a := steps(1, 2, 3)
	b := steps(1, 20, 3)
	b[2].Outcome = Failed
	b = append(b, Step{Kind: AgentMessage, Args: 5})
	a = append(a, Step{Kind: Action, Tool: "file_editor", Args: 5})
	al := Align(a, b)
	want := []Op{Same, Changed, Changed, OnlyA, OnlyB}
	if len(al.Rows) != len(want) {
		t.Fatalf("rows %+v", al.Rows)
	}
	for i, op := range want {
		if al.Rows[i].Op != op {
			t.Errorf("row %d: %v, want %v (%+v)", i, al.Rows[i].Op, op, al.Rows)
		}
	}
}

// Whitespace, ids and the random names of temporary directories do not
// make two calls differ; what the call does does.
func TestNormalisedArguments(t *testing.T) {
	h := newHasher()
	hash := func(v string) uint64 { h.reset(); h.value([]byte(v)); return h.h }
	same := [][2]string{
		{`{"command": "ls  -la\n"}`, `{"command":"ls -la"}`},
		{`{"id":"3fa85f64-5717-4562-b3fc-2c963f66afa6"}`, `{"id":"0b9a1c2d-1111-4222-8333-944455556666"}`},
		{`{"c":"rm /tmp/tmpab12cd/out.txt"}`, `{"c":"rm /tmp/tmpzz99yy/out.txt"}`},
		{`{"c":"cat /var/folders/xy/abc123/T/tmp9k2/x"}`, `{"c":"cat /var/folders/xy/abc123/T/tmp1q7/x"}`},
		{`{"c":"git show 4c063d87cbb24290a3bf2ddabcbcf0a2"}`, `{"c":"git show 693d252becdc4ad5831d4a822d4f9f13"}`},
	}
	for _, p := range same {
		if hash(p[0]) != hash(p[1]) {
			t.Errorf("%s and %s differ", p[0], p[1])
		}
	}
	differ := [][2]string{
		{`{"command":"ls -la"}`, `{"command":"ls -l"}`},
		{`{"c":"cat /tmp/out.txt"}`, `{"c":"cat /tmp/err.txt"}`},
		{`{"c":"a b"}`, `{"c":"ab"}`},
	}
	for _, p := range differ {
		if hash(p[0]) == hash(p[1]) {
			t.Errorf("%s and %s are the same", p[0], p[1])
		}
	}
}

// member finds a top-level member whatever comes before it.
func TestMember(t *testing.T) {
	raw := []byte(`{"a": {"x": "}\"{"}, "b" : [1, {"c": 2}], "action": {"command": "ls"}, "z": true}`)
	if got := string(member(raw, "action")); got != `{"command": "ls"}` {
		t.Errorf("action = %q", got)
	}
	if got := string(member(raw, "z")); got != "true" {
		t.Errorf("z = %q", got)
	}
	if member(raw, "x") != nil || member([]byte(`{"a":`), "a") != nil || member([]byte(`[1]`), "a") != nil {
		t.Error("found a member that is not there")
	}
}
