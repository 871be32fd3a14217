package reducer

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"ohwatch/model"
)

// script builds events by hand, with ids e1, e2, … and one second between
// timestamps, for tests that pin one rule at a time.
type script struct {
	n     int
	start time.Time
	evs   []model.Event
}

func newScript() *script {
	return &script{start: time.Date(2026, 1, 27, 3, 56, 0, 0, time.UTC)}
}

// add appends an event and returns it.
func (s *script) add(kind, source string, body model.Body) model.Event {
	s.n++
	ev := model.Event{
		Kind:   kind,
		ID:     fmt.Sprintf("e%d", s.n),
		Time:   s.start.Add(time.Duration(s.n) * time.Second),
		Source: source,
		Body:   body,
	}
	s.evs = append(s.evs, ev)
	return ev
}

// at returns the time of the event with ordinal n (1-based).
func (s *script) at(n int) time.Time { return s.start.Add(time.Duration(n) * time.Second) }

func (s *script) user() model.Event {
	return s.add("MessageEvent", "user", &model.Message{Role: "user"})
}

func (s *script) agentText(resp string) model.Event {
	return s.add("MessageEvent", "agent", &model.Message{Role: "assistant", LLMResponseID: resp})
}

func (s *script) action(kind, resp, call, risk string) model.Event {
	return s.add("ActionEvent", "agent", &model.Action{ActionKind: kind, ToolName: "terminal", ToolCallID: call, LLMResponseID: resp, SecurityRisk: risk})
}

func (s *script) observe(kind string, action model.Event) model.Event {
	a := action.Body.(*model.Action)
	return s.add("ObservationEvent", "environment", &model.Observation{ObservationKind: kind, ToolName: a.ToolName, ToolCallID: a.ToolCallID, ActionID: action.ID})
}

func (s *script) status(v string) model.Event {
	return s.add("ConversationStateUpdateEvent", "environment", &model.StateUpdate{Key: "execution_status", ExecutionStatus: v})
}

func (s *script) snapshot(v string, st *model.Stats) model.Event {
	return s.add("ConversationStateUpdateEvent", "environment", &model.StateUpdate{Key: "full_state", FullState: true, ExecutionStatus: v, Stats: st})
}

func (s *script) stats(st *model.Stats) model.Event {
	return s.add("ConversationStateUpdateEvent", "environment", &model.StateUpdate{Key: "stats", Stats: st})
}

// fold applies every scripted event to Initial(nil, 0).
func (s *script) fold() State { return Fold(Initial(nil, 0), s.evs...) }

// eqMemo remembers pairs of list nodes already found equal, so comparing
// the States of every prefix of a long log stays linear: nodes older than
// the newest checkpoint are shared and compared once.
type eqMemo struct {
	seen map[[2]any]bool
}

func newEqMemo() *eqMemo { return &eqMemo{seen: make(map[[2]any]bool)} }

// diffState describes the first difference between a and b, "" when equal.
func diffState(a, b State, memo *eqMemo) string {
	if memo == nil {
		memo = newEqMemo()
	}
	if !memo.transitions(a.transitions, b.transitions) {
		return fmt.Sprintf("transitions: %d != %d; last %+v != %+v", a.transitions.len(), b.transitions.len(), a.LastTransitions(1), b.LastTransitions(1))
	}
	if !memo.errors(a.errors, b.errors) {
		return fmt.Sprintf("errors: %d != %d", a.ErrorCount, b.ErrorCount)
	}
	if !memo.forgotten(a.forgotten, b.forgotten) {
		return "forgotten ids differ"
	}
	if !memo.acp(a.acp, b.acp) {
		return fmt.Sprintf("acp calls: %+v != %+v", a.ACPCalls(), b.ACPCalls())
	}
	// The context is a pure function of the base and the event count:
	// comparing those is enough, and far cheaper than its index.
	if a.ctx.base != b.ctx.base || a.ctx.baseEventCount != b.ctx.baseEventCount {
		return "contexts differ"
	}
	if !scalarsEqual(a, b) {
		a.ctx, b.ctx = nil, nil
		return fmt.Sprintf("\n%+v\n!=\n%+v", a, b)
	}
	return ""
}

// stateFields is the number of fields scalarsEqual and the list
// comparisons above know; TestEqualityKnowsEveryField fails when a field
// is added to State without being compared.
const stateFields = 34

// scalarsEqual compares every State field but the context and the linked
// lists, without reflection (reflect.DeepEqual on every prefix of a long
// log is slow under -race).
func scalarsEqual(a, b State) bool {
	return a.Applied == b.Applied && a.Status == b.Status && a.StatusSource == b.StatusSource &&
		a.StatusConfirmed == b.StatusConfirmed && a.StatusAt == b.StatusAt &&
		a.Iteration == b.Iteration && a.Steps == b.Steps &&
		metricsEqual(a.Metrics, b.Metrics) && a.MetricsAt == b.MetricsAt &&
		slices.Equal(a.Tasks.Items, b.Tasks.Items) && a.Tasks.ChangedAt == b.Tasks.ChangedAt &&
		slices.Equal(a.Tasks.Tentative, b.Tasks.Tentative) && a.Tasks.TentativeAt == b.Tasks.TentativeAt &&
		slices.Equal(a.Pending, b.Pending) && a.ErrorCount == b.ErrorCount &&
		a.ConfirmationPolicy == b.ConfirmationPolicy &&
		a.kinds == b.kinds && slices.Equal(a.otherKinds, b.otherKinds) && slices.Equal(a.unknownKinds, b.unknownKinds) &&
		a.history == b.history && a.sawStatus == b.sawStatus && a.snapshotAt.Equal(b.snapshotAt) && a.statusTime.Equal(b.statusTime) &&
		a.recentIDs == b.recentIDs && a.recentNext == b.recentNext && a.statsSeen == b.statsSeen && a.usageSeen == b.usageSeen &&
		a.attributed == b.attributed && a.tentativeID == b.tentativeID &&
		questionsEqual(a.Question, b.Question) && a.WarningCount == b.WarningCount &&
		slices.Equal(a.Warnings(), b.Warnings())
}

// questionsEqual compares two open questions by what they are, not by the
// pointer (a log's At decodes the request again).
func questionsEqual(a, b *Question) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Index == b.Index && a.At.Equal(b.At) && reflect.DeepEqual(a.Request, b.Request)
}

func TestEqualityKnowsEveryField(t *testing.T) {
	if n := reflect.TypeFor[State]().NumField(); n != stateFields {
		t.Fatalf("State has %d fields; diffState compares %d: compare the new ones", n, stateFields)
	}
	if n := reflect.TypeFor[Tasks]().NumField(); n != 4 {
		t.Fatalf("Tasks has %d fields; scalarsEqual compares 4", n)
	}
	// Each field that differs is noticed.
	base := newScript()
	base.user()
	a := base.fold()
	mutations := []func(s *State){
		func(s *State) { s.Applied++ }, func(s *State) { s.Status = "x" }, func(s *State) { s.StatusSource = "x" },
		func(s *State) { s.StatusConfirmed = true }, func(s *State) { s.StatusAt++ }, func(s *State) { s.Iteration++ },
		func(s *State) { s.Steps++ }, func(s *State) { s.Metrics.Combined.Prompt++ }, func(s *State) { s.MetricsAt++ },
		func(s *State) { s.Tasks.Items = []TaskItem{{}} }, func(s *State) { s.Tasks.ChangedAt++ },
		func(s *State) { s.Tasks.Tentative = []TaskItem{{}} }, func(s *State) { s.Tasks.TentativeAt++ },
		func(s *State) { s.Pending = []PendingAction{{}} }, func(s *State) { s.ErrorCount++ },
		func(s *State) { s.ConfirmationPolicy = "x" }, func(s *State) { s.kinds[3]++ },
		func(s *State) { s.otherKinds = s.otherKinds.add("x") }, func(s *State) { s.unknownKinds = s.unknownKinds.add("x") },
		func(s *State) { s.history++ }, func(s *State) { s.sawStatus = true }, func(s *State) { s.snapshotAt = s.snapshotAt.Add(1) }, func(s *State) { s.statusTime = s.statusTime.Add(1) },
		func(s *State) { s.recentIDs[0] = "x" }, func(s *State) { s.recentNext++ }, func(s *State) { s.statsSeen = true },
		func(s *State) { s.attributed++ }, func(s *State) { s.tentativeID = "x" },
		func(s *State) { s.transitions = s.transitions.push(Transition{}) }, func(s *State) { s.errors = s.errors.push(ErrorRef{}) },
		func(s *State) { s.forgotten = s.forgotten.forget([]string{"x"}) }, func(s *State) { s.acp = &acpNode{prev: s.acp} },
		func(s *State) { s.ctx = newContext(&model.BaseState{}, 0) },
	}
	for k, mutate := range mutations {
		b := a
		mutate(&b)
		if diffState(a, b, nil) == "" {
			t.Errorf("mutation %d went unnoticed", k)
		}
	}
}

// sameChain walks two persistent lists back from their heads and reports
// whether they hold equal nodes (same compares one pair's own fields; prev
// steps back). Shared tails and pairs already found equal end the walk
// early, which keeps comparing every prefix of a long log linear.
func sameChain[N any](m *eqMemo, a, b *N, same func(a, b *N) bool, prev func(*N) *N) bool {
	for a != b {
		if m.seen[[2]any{a, b}] {
			return true
		}
		if a == nil || b == nil || !same(a, b) {
			return false
		}
		m.seen[[2]any{a, b}] = true
		a, b = prev(a), prev(b)
	}
	return true
}

func (m *eqMemo) transitions(a, b *transitionNode) bool {
	return sameChain(m, a, b,
		func(a, b *transitionNode) bool { return a.t == b.t && a.n == b.n },
		func(n *transitionNode) *transitionNode { return n.prev })
}

func (m *eqMemo) errors(a, b *errorNode) bool {
	return sameChain(m, a, b,
		func(a, b *errorNode) bool { return a.e == b.e && a.n == b.n },
		func(n *errorNode) *errorNode { return n.prev })
}

func (m *eqMemo) forgotten(a, b *forgetNode) bool {
	return sameChain(m, a, b,
		func(a, b *forgetNode) bool {
			return a.total == b.total && reflect.DeepEqual(a.uuids, b.uuids) && reflect.DeepEqual(a.others, b.others)
		},
		func(n *forgetNode) *forgetNode { return n.prev })
}

func (m *eqMemo) acp(a, b *acpNode) bool {
	return sameChain(m, a, b,
		func(a, b *acpNode) bool { return a.call == b.call },
		func(n *acpNode) *acpNode { return n.prev })
}

// navigatesBack reports whether some event of evs, a tree node, names as
// its parent a tree node already seen that is not the last one seen: HEAD
// moved back, and the log may branch there. Without one a log is a line.
func navigatesBack(evs []model.Event) bool {
	seen := map[string]bool{}
	last := ""
	for _, ev := range evs {
		if seen[ev.ID] || isArtifact(&ev) {
			continue
		}
		if ev.ParentID != "" && ev.ParentID != last && seen[ev.ParentID] {
			return true
		}
		seen[ev.ID], last = true, ev.ID
	}
	return false
}

// checkEveryPath asserts that log.At(k) equals a fresh fold of the events
// on the path to k, for every k: what checkEveryPrefix asserts of a line.
func checkEveryPath(t *testing.T, log *Log, base *model.BaseState, count int) {
	t.Helper()
	memo := newEqMemo()
	for k := 0; k < log.Len(); k++ {
		s := Initial(base, count)
		for _, i := range log.Path(k).Indices() {
			s = ApplyAt(s, i, log.Event(i))
		}
		if d := diffState(log.At(k), s, memo); d != "" {
			t.Fatalf("At(%d) != fold of its path %v: %s", k, log.Path(k).Indices(), d)
		}
	}
}

// checkEveryPrefix asserts that log.At(k) equals a fresh fold of the first
// k+1 events for every k, and At(-1) the initial State.
func checkEveryPrefix(t *testing.T, log *Log, base *model.BaseState, count int) {
	t.Helper()
	// The log is one line: HEAD is its last event and nothing branches.
	if n := log.Len(); !log.Linear() || log.Head() != n-1 || len(log.BranchPoints()) != 0 ||
		(n > 0 && (log.Parent(n-1) != n-2 || log.Depth(n-1) != n-1 || log.Path(n-1).Len() != n)) {
		t.Fatalf("a linear log reads as a tree: linear %v, head %d of %d, branch points %v", log.Linear(), log.Head(), n, log.BranchPoints())
	}
	memo := newEqMemo()
	s := Initial(base, count)
	if d := diffState(log.At(-1), s, memo); d != "" {
		t.Fatalf("At(-1) != Initial: %s", d)
	}
	for k := 0; k < log.Len(); k++ {
		s = Apply(s, log.Event(k))
		if d := diffState(log.At(k), s, memo); d != "" {
			t.Fatalf("At(%d) != fold of %d events: %s", k, k+1, d)
		}
	}
	if d := diffState(log.Latest(), s, memo); d != "" {
		t.Fatalf("Latest != fold: %s", d)
	}
}
