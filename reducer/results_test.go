package reducer

import (
	"path/filepath"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// unmatched is the SDK's rule for the result of the action at i, read
// straight off the events (ConversationState.get_unmatched_actions, run
// forwards for one action): the first later observation or rejection
// whose action_id is its id (by tool call id when it has no action_id),
// or agent error with its tool call id, while no later action has taken
// that tool call id.
func unmatched(evs []model.Event, i int) (int, bool) {
	a, ok := evs[i].Body.(*model.Action)
	if !ok {
		return 0, false
	}
	id, taken := evs[i].ID, false
	byCall := func(call string) bool { return !taken && a.ToolCallID != "" && call == a.ToolCallID }
	for j := i + 1; j < len(evs); j++ {
		switch b := evs[j].Body.(type) {
		case *model.Action:
			taken = taken || (a.ToolCallID != "" && b.ToolCallID == a.ToolCallID)
		case *model.Observation:
			if (b.ActionID != "" && b.ActionID == id) || (b.ActionID == "" && byCall(b.ToolCallID)) {
				return j, true
			}
		case *model.UserReject:
			if (b.ActionID != "" && b.ActionID == id) || (b.ActionID == "" && byCall(b.ToolCallID)) {
				return j, true
			}
		case *model.AgentError:
			if byCall(b.ToolCallID) {
				return j, true
			}
		}
	}
	return 0, false
}

// checkResults holds ResultOf and ActionOf to the rule for every event.
func checkResults(t *testing.T, evs []model.Event) int {
	t.Helper()
	log := NewLog(nil, 0)
	log.Append(evs...)
	answered := 0
	for i := range evs {
		r, ok := unmatched(evs, i)
		got, gotOK := log.ResultOf(i)
		if got != r || gotOK != ok {
			t.Errorf("event %d (%s): result %d %v, the rule's %d %v", i, evs[i].Kind, got, gotOK, r, ok)
		}
		if ok {
			answered++
			if a, aok := log.ActionOf(r); !aok || a != i {
				t.Errorf("result %d answers %d %v, want %d", r, a, aok, i)
			}
		}
	}
	for j := range evs {
		if a, ok := log.ActionOf(j); ok {
			if r, _ := log.ResultOf(a); r != j {
				t.Errorf("event %d answers %d, whose result is %d", j, a, r)
			}
		}
	}
	return answered
}

// TestResultOfFollowsTheSDKsRule: the log names for each action the
// result the SDK's rule names, on hand-made shapes that scans got wrong,
// the project's recordings and a generated log.
func TestResultOfFollowsTheSDKsRule(t *testing.T) {
	t.Parallel()
	cases := map[string]func(s *script){
		"shared call id in one response": func(s *script) {
			a1 := s.action("TerminalAction", "r1", "call_0", "LOW")
			a2 := s.action("TerminalAction", "r1", "call_0", "LOW")
			s.observe("TerminalObservation", a1)
			s.observe("TerminalObservation", a2)
		},
		"reused call id, first unanswered": func(s *script) {
			s.action("TerminalAction", "r1", "call_0", "LOW")
			a2 := s.action("TerminalAction", "r2", "call_0", "LOW")
			s.observe("TerminalObservation", a2)
		},
		"agent error by call id, newest action": func(s *script) {
			s.action("", "r1", "call_0", "LOW")
			s.add("AgentErrorEvent", "agent", &model.AgentError{ToolCallID: "call_0", Error: "bad args"})
			s.action("TerminalAction", "r2", "call_0", "LOW")
			s.action("TerminalAction", "r2", "call_0", "LOW")
			s.add("AgentErrorEvent", "agent", &model.AgentError{ToolCallID: "call_0", Error: "restart"})
		},
		"rejection, then a second answer": func(s *script) {
			a := s.action("TerminalAction", "r1", "call_1", "HIGH")
			s.add("UserRejectObservation", "user", &model.UserReject{ToolCallID: "call_1", ActionID: a.ID, Reason: "no"})
			s.observe("TerminalObservation", a)
		},
		"observation without action_id": func(s *script) {
			s.action("TerminalAction", "r1", "call_2", "LOW")
			s.add("ObservationEvent", "environment", &model.Observation{ToolCallID: "call_2"})
		},
		"action_id naming no action": func(s *script) {
			m := s.user()
			s.action("TerminalAction", "r1", "call_3", "LOW")
			s.add("ObservationEvent", "environment", &model.Observation{ToolCallID: "call_3", ActionID: m.ID})
			s.add("ObservationEvent", "environment", &model.Observation{ToolCallID: "call_3", ActionID: "missing"})
		},
		"far from its action": func(s *script) {
			a := s.action("TerminalAction", "r1", "call_4", "LOW")
			for range 3000 {
				s.status("running")
			}
			s.observe("TerminalObservation", a)
		},
	}
	for name, build := range cases {
		t.Run(name, func(t *testing.T) {
			s := newScript()
			build(s)
			checkResults(t, s.evs)
		})
	}
	for _, dir := range fixtures.Recordings(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			checkResults(t, testevents.Recorded(t, dir))
		})
	}
	t.Run("generated", func(t *testing.T) {
		if checkResults(t, testevents.Generated(t, 5000, 2)) == 0 {
			t.Fatal("no action answered in a generated log")
		}
	})
}

// TestResultOfIsNoScan: looking results up costs the same however far
// they lie from their actions.
func TestResultOfIsNoScan(t *testing.T) {
	s := newScript()
	a := s.action("TerminalAction", "r1", "call_0", "LOW")
	for range 20000 {
		s.status("running")
	}
	s.observe("TerminalObservation", a)
	log := NewLog(nil, 0)
	log.Append(s.evs...)
	allocs := testing.AllocsPerRun(100, func() {
		if r, ok := log.ResultOf(0); !ok || r != len(s.evs)-1 {
			t.Fatalf("result %d %v", r, ok)
		}
	})
	if allocs != 0 {
		t.Fatalf("ResultOf allocated %v times: it decodes events", allocs)
	}
}
