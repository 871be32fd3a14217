package reducer

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"ohwatch/model"
)

// treeEvents stamps synthEvents with parent ids the way upstream writes
// them while a conversation is navigated: every event names the HEAD of the
// moment, HEAD moves to every event but the artifacts, and now and then
// HEAD jumps back to a random earlier event (navigate), to nothing (the
// next event is a RootParent root), or an event names a parent the log
// never saw. The first legacy events carry no parent_id at all.
func treeEvents(n int, seed uint64, legacy int) []model.Event {
	evs := synthEvents(n, seed)
	r := rand.New(rand.NewPCG(seed, 0x7e3e))
	head := ""
	var tree []string // ids that became HEAD
	for k := range evs {
		ev := &evs[k]
		if k < legacy {
			ev.ParentID = ""
		} else {
			switch p := r.IntN(200); {
			case p < 8 && len(tree) > 0: // navigate
				head = tree[r.IntN(len(tree))]
			case p == 8 && k > 0: // navigate to nothing
				head = RootParent
			}
			ev.ParentID = head
			if r.IntN(150) == 0 {
				ev.ParentID = fmt.Sprintf("missing-%d", k)
			}
		}
		if !isArtifact(ev) {
			head = ev.ID
			tree = append(tree, ev.ID)
		}
	}
	return evs
}

// refTree is a plain model of the fold tree: the log's events after
// dedupe, and each one's parent by the rule foldParent documents, kept in
// an array instead of segments.
type refTree struct {
	evs    []model.Event
	parent []int
}

func newRefTree(in []model.Event) *refTree {
	t := &refTree{}
	ids := map[string]int{}
	anchor := anchorNone
	for _, ev := range in {
		if _, dup := ids[ev.ID]; dup && ev.ID != "" {
			continue
		}
		j := len(t.evs)
		art := isArtifact(&ev)
		named, known := -99, false
		switch {
		case ev.ParentID == RootParent:
			named, known = anchorRoot, true
		case ev.ParentID != "":
			named, known = ids[ev.ParentID]
		}
		parent := j - 1
		if known && named != anchor {
			parent = max(named, -1)
		}
		switch {
		case !art:
			anchor = j
		case known:
			anchor = named
		}
		if ev.ID != "" {
			ids[ev.ID] = j
		}
		t.evs = append(t.evs, ev)
		t.parent = append(t.parent, parent)
	}
	return t
}

// path is the root-first path to i.
func (t *refTree) path(i int) []int {
	var p []int
	for ; i >= 0; i = t.parent[i] {
		p = append(p, i)
	}
	slices.Reverse(p)
	return p
}

func (t *refTree) children(i int) []int {
	var c []int
	for j, p := range t.parent {
		if p == i {
			c = append(c, j)
		}
	}
	return c
}

// foldPath is a fresh fold of the path to i from Initial.
func (t *refTree) foldPath(i int) State {
	s := Initial(nil, 0)
	for _, k := range t.path(i) {
		s = ApplyAt(s, k, t.evs[k])
	}
	return s
}

func TestLogAtIsTheFoldOfThePathOnRandomTrees(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n, every, legacy int
		seed             uint64
	}{
		{0, checkpointEvery, 0, 1},
		{1, checkpointEvery, 0, 2},
		{300, 4, 0, 3},
		{700, checkpointEvery, 50, 4},
		{3000, 8, 200, 5},
		// Across chunks, so runs and segments straddle chunk boundaries.
		{2*chunkSize + 333, 16, 10, 6},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("n=%d,K=%d,seed=%d", tt.n, tt.every, tt.seed), func(t *testing.T) {
			evs := treeEvents(tt.n, tt.seed, tt.legacy)
			log := newLogEvery(nil, 0, tt.every)
			for k := 0; k < len(evs); {
				m := min(1+k%29, len(evs)-k)
				log.Append(evs[k : k+m]...)
				k += m
			}
			ref := newRefTree(evs)
			checkTree(t, log, ref)
		})
	}
}

// checkTree compares every view of the log's tree with the plain model.
func checkTree(t *testing.T, log *Log, ref *refTree) {
	t.Helper()
	n := len(ref.evs)
	if log.Len() != n {
		t.Fatalf("len %d, want %d", log.Len(), n)
	}
	memo := newEqMemo()
	states := make([]State, n)
	var marks Marks
	for i := range n {
		p := ref.parent[i]
		if got := log.Parent(i); got != p {
			t.Fatalf("Parent(%d) = %d, want %d", i, got, p)
		}
		before := Initial(nil, 0)
		if p >= 0 {
			before = states[p]
		}
		// By purity this is the fold of the path to i.
		states[i] = ApplyAt(before, i, ref.evs[i])
		marks = marks.add(i, &ref.evs[i], markedOf(&before), markedOf(&states[i]))
		if d := diffState(log.At(i), states[i], memo); d != "" {
			t.Fatalf("At(%d) != fold of its path %v: %s", i, ref.path(i), d)
		}
		if log.Depth(i) != len(ref.path(i))-1 || log.At(i).Applied != len(ref.path(i)) {
			t.Fatalf("Depth(%d) = %d, Applied %d; path %v", i, log.Depth(i), log.At(i).Applied, ref.path(i))
		}
	}
	r := rand.New(rand.NewPCG(uint64(n), 9))
	for range min(n, 40) {
		i := r.IntN(n)
		if d := diffState(log.At(i), ref.foldPath(i), nil); d != "" {
			t.Fatalf("At(%d) != fresh fold of %v: %s", i, ref.path(i), d)
		}
		if got := log.Path(i).Indices(); !slices.Equal(got, ref.path(i)) {
			t.Fatalf("Path(%d) = %v, want %v", i, got, ref.path(i))
		}
		p := log.Path(i)
		for k, idx := range ref.path(i) {
			if p.At(k) != idx {
				t.Fatalf("Path(%d).At(%d) = %d, want %d", i, k, p.At(k), idx)
			}
			if pos, ok := p.Pos(idx); !ok || pos != k {
				t.Fatalf("Path(%d).Pos(%d) = %d,%v", i, idx, pos, ok)
			}
		}
		if diff := log.Diff(i); !reflect.DeepEqual(diff, DiffStates(log.At(ref.parent[i]), states[i])) {
			t.Fatalf("Diff(%d) = %v", i, diff)
		}
		on := log.MarksOn(i)
		want := Marks{
			Errors:        filterOn(marks.Errors, ref.path(i)),
			StatusChanges: filterOn(marks.StatusChanges, ref.path(i)),
			UserTurns:     filterOn(marks.UserTurns, ref.path(i)),
		}
		again := log.MarksOn(i) // kept from the call before
		for _, m := range []Marks{on, again} {
			if !slices.Equal(m.Errors, want.Errors) || !slices.Equal(m.StatusChanges, want.StatusChanges) || !slices.Equal(m.UserTurns, want.UserTurns) {
				t.Fatalf("MarksOn(%d) = %+v, want %+v", i, m, want)
			}
		}
	}
	var points []int
	for i := -1; i < n; i++ {
		want := ref.children(i)
		if got := log.Children(i); !slices.Equal(got, want) {
			t.Fatalf("Children(%d) = %v, want %v", i, got, want)
		}
		if i >= 0 && len(want) > 1 {
			points = append(points, i)
		}
	}
	if got := log.BranchPoints(); !slices.Equal(got, points) {
		t.Fatalf("BranchPoints = %v, want %v", got, points)
	}
	if n > 0 {
		if log.Linear() != (len(points) == 0 && len(ref.children(-1)) == 1) {
			t.Fatalf("Linear = %v with branch points %v and roots %v", log.Linear(), points, ref.children(-1))
		}
		h := log.Head()
		if d := diffState(log.Latest(), states[h], memo); d != "" {
			t.Fatalf("Latest != At(Head %d): %s", h, d)
		}
		if got := log.HeadPath().Indices(); !slices.Equal(got, ref.path(h)) {
			t.Fatalf("HeadPath = %v, want %v", got, ref.path(h))
		}
	}
	for _, bp := range points {
		head := ref.path(log.Head())
		for _, b := range log.Branches(bp) {
			tipPath := ref.path(b.Tip)
			if !slices.Contains(tipPath, b.First) || ref.parent[b.First] != bp {
				t.Fatalf("branch %+v of %d: its tip's path %v does not go through it", b, bp, tipPath)
			}
			if b.Head != slices.Contains(head, b.First) {
				t.Fatalf("branch %+v of %d: Head is wrong", b, bp)
			}
		}
	}
}

// filterOn keeps the indices of list that are on path.
func filterOn(list, path []int) []int {
	out := []int{}
	for _, i := range list {
		if slices.Contains(path, i) {
			out = append(out, i)
		}
	}
	return out
}

// chain stamps each event with the previous one's id as parent_id.
func chain(evs []model.Event) []model.Event {
	for k := 1; k < len(evs); k++ {
		evs[k].ParentID = evs[k-1].ID
	}
	return evs
}

func TestLogHeadFollowsTheServer(t *testing.T) {
	sc := newScript()
	sc.user()                                           // 0
	a := sc.action("TerminalAction", "r1", "c1", "LOW") // 1
	sc.observe("TerminalObservation", a)                // 2
	sc.status("finished")                               // 3: an artifact: HEAD stays on 2
	evs := chain(sc.evs)
	evs[3].ParentID = evs[2].ID

	t.Run("newest tree event and the artifacts after it", func(t *testing.T) {
		log := NewLog(nil, 0)
		log.Append(evs...)
		if log.Head() != 3 || log.Leaf() != 2 || !log.Linear() || log.Latest().Status != "finished" {
			t.Fatalf("head %d leaf %d linear %v status %s", log.Head(), log.Leaf(), log.Linear(), log.Latest().Status)
		}
	})
	t.Run("a full_state snapshot moves HEAD back", func(t *testing.T) {
		log := NewLog(nil, 0)
		log.Append(evs...)
		log.Append(model.Event{Kind: "ConversationStateUpdateEvent", ID: "snap", Source: "environment",
			Body: &model.StateUpdate{Key: "full_state", FullState: true, ExecutionStatus: "idle", LeafEventID: evs[0].ID}})
		if log.Head() != 0 || log.Leaf() != 0 || log.Latest().Applied != 1 || !slices.Equal(log.HeadPath().Indices(), []int{0}) {
			t.Fatalf("head %d leaf %d path %v", log.Head(), log.Leaf(), log.HeadPath())
		}
		if m := log.Marks(); !slices.Equal(m.UserTurns, []int{0}) || !slices.Equal(m.StatusChanges, []int{0}) {
			t.Fatalf("marks on HEAD's path %+v", m)
		}
		// The agent goes on from HEAD: a branch at 0.
		next := newScript()
		next.n = 100
		b := next.user()
		b.ParentID = evs[0].ID
		log.Append(b)
		if log.Head() != 5 || log.Parent(5) != 0 || !slices.Equal(log.BranchPoints(), []int{0}) {
			t.Fatalf("head %d parent %d branch points %v", log.Head(), log.Parent(5), log.BranchPoints())
		}
		br := log.Branches(0)
		want := []Branch{{First: 1, Tip: 4}, {First: 5, Tip: 5, Head: true}}
		if !reflect.DeepEqual(br, want) {
			t.Fatalf("Branches(0) = %+v, want %+v", br, want)
		}
		if log.Tip(2) != 4 || log.Tip(0) != 5 || log.Tip(5) != 5 || log.Tip(9) != -1 {
			t.Fatalf("tips %d %d %d", log.Tip(2), log.Tip(0), log.Tip(5))
		}
		// The abandoned branch keeps its own state: finished there, not on HEAD.
		if log.At(3).Status != "finished" || log.Latest().Status == "finished" || log.At(5).Applied != 2 {
			t.Fatalf("At(3) %s, Latest %s", log.At(3).Status, log.Latest().Status)
		}
	})
	t.Run("base_state.json says where HEAD is once its events are in", func(t *testing.T) {
		base := &model.BaseState{ExecutionStatus: "idle", LeafEventID: evs[1].ID}
		log := NewLog(base, len(evs))
		log.Append(evs[:2]...)
		if log.Head() != 1 {
			t.Fatalf("head %d before the counted events are in", log.Head())
		}
		log.Append(evs[2:]...)
		if log.Head() != 1 || log.Leaf() != 1 {
			t.Fatalf("head %d leaf %d", log.Head(), log.Leaf())
		}
	})
	t.Run("SetLeaf", func(t *testing.T) {
		log := NewLog(nil, 0)
		log.Append(evs...)
		v := log.Version()
		if log.SetLeaf("nope") || log.Head() != 3 {
			t.Fatal("an unknown id moved HEAD")
		}
		if !log.SetLeaf(evs[1].ID) || log.Head() != 1 || log.Version() == v {
			t.Fatalf("head %d", log.Head())
		}
		if log.At(99).Applied != 2 {
			t.Fatal("At past the end is not HEAD's state")
		}
	})
}

// TestBranchedLogConcurrentAppendAndRead reads the tree while it grows;
// under -race it proves the segments and the marks memo are shared soundly.
func TestBranchedLogConcurrentAppendAndRead(t *testing.T) {
	t.Parallel()
	evs := treeEvents(chunkSize+300, 12, 0)
	log := newLogEvery(nil, 0, 16)
	readWhileAppending(t, log, evs, func(i int) string {
		if s := log.At(i); s.Applied != log.Depth(i)+1 {
			return fmt.Sprintf("At(%d).Applied = %d, depth %d", i, s.Applied, log.Depth(i))
		}
		_ = log.MarksOn(i)
		_ = log.Marks().All()
		_ = log.HeadPath().Len()
		for _, bp := range log.BranchPoints() {
			_ = log.Branches(bp)
		}
		_ = log.Latest().Pending
		return ""
	})
	checkTree(t, log, newRefTree(evs))
}

// TestAnUnknownKindThatHEADDidNotMoveToContinuesTheLine: an event of a kind
// this build does not know, after which the server stamps the next event
// with the same parent (it treated the kind as an artifact), leaves the
// log linear; one the next event names as its parent does too; a known
// tree event named past in the same way is a branch, as before.
func TestAnUnknownKindThatHEADDidNotMoveToContinuesTheLine(t *testing.T) {
	build := func(kind string, nextNamesIt bool) *Log {
		sc := newScript()
		sc.user()                                           // 0
		a := sc.action("TerminalAction", "r1", "c1", "LOW") // 1
		evs := chain(sc.evs)
		odd := model.Event{Kind: kind, ID: "e0e0e0e0-0000-4000-8000-00000000aaaa", Source: "environment", ParentID: evs[1].ID, Body: &model.Unknown{}}
		if kind == "MessageEvent" {
			odd.Body = &model.Message{Role: "user"}
		}
		evs = append(evs, odd) // 2
		sc.observe("TerminalObservation", a)
		obs := sc.evs[len(sc.evs)-1] // 3
		obs.ParentID = evs[1].ID
		if nextNamesIt {
			obs.ParentID = odd.ID
		}
		log := NewLog(nil, 0)
		log.Append(append(evs, obs)...)
		return log
	}
	for _, nextNamesIt := range []bool{false, true} {
		if log := build("SomeNewerSDKEvent", nextNamesIt); !log.Linear() || log.Head() != 3 || len(log.BranchPoints()) != 0 {
			t.Errorf("unknown kind, next names it %v: linear %v head %d branch points %v", nextNamesIt, log.Linear(), log.Head(), log.BranchPoints())
		}
	}
	if log := build("MessageEvent", false); log.Linear() || !slices.Equal(log.BranchPoints(), []int{1}) {
		t.Errorf("a known tree event named past: linear %v branch points %v", log.Linear(), log.BranchPoints())
	}
}
