package reducer

import (
	"fmt"
	"reflect"
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
	a.transitions, b.transitions = nil, nil
	a.errors, b.errors = nil, nil
	a.forgotten, b.forgotten = nil, nil
	a.acp, b.acp = nil, nil
	if !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("\n%+v\n!=\n%+v", a, b)
	}
	return ""
}

func (m *eqMemo) transitions(a, b *transitionNode) bool {
	for a != b {
		if a == nil || b == nil || a.t != b.t || a.n != b.n {
			return false
		}
		if m.seen[[2]any{a, b}] {
			return true
		}
		m.seen[[2]any{a, b}] = true
		a, b = a.prev, b.prev
	}
	return true
}

func (m *eqMemo) errors(a, b *errorNode) bool {
	for a != b {
		if a == nil || b == nil || a.e != b.e || a.n != b.n {
			return false
		}
		if m.seen[[2]any{a, b}] {
			return true
		}
		m.seen[[2]any{a, b}] = true
		a, b = a.prev, b.prev
	}
	return true
}

func (m *eqMemo) forgotten(a, b *forgetNode) bool {
	for a != b {
		if a == nil || b == nil || a.total != b.total || !reflect.DeepEqual(a.ids, b.ids) {
			return false
		}
		if m.seen[[2]any{a, b}] {
			return true
		}
		m.seen[[2]any{a, b}] = true
		a, b = a.prev, b.prev
	}
	return true
}

func (m *eqMemo) acp(a, b *acpNode) bool {
	for a != b {
		if a == nil || b == nil || a.call != b.call {
			return false
		}
		if m.seen[[2]any{a, b}] {
			return true
		}
		m.seen[[2]any{a, b}] = true
		a, b = a.prev, b.prev
	}
	return true
}

// checkEveryPrefix asserts that log.At(k) equals a fresh fold of the first
// k+1 events for every k, and At(-1) the initial State.
func checkEveryPrefix(t *testing.T, log *Log, base *model.BaseState, count int) {
	t.Helper()
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
