package reducer

import (
	"fmt"
	"math/rand/v2"
	"time"

	"ohwatch/model"
)

// synthEvents builds n varied events directly (no JSON), deterministic for
// a seed: turns of user messages, parallel tool calls and their results,
// stats and status updates, errors, condensations, task plans and the odd
// unknown kind and duplicate id. It exercises every branch of Apply.
func synthEvents(n int, seed uint64) []model.Event {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	evs := make([]model.Event, 0, n)
	var open []model.Event
	var prompt, completion int64
	var cost float64
	resp := 0
	add := func(kind, source string, body model.Body) model.Event {
		k := len(evs)
		ev := model.Event{Kind: kind, ID: fmt.Sprintf("%016x-%d", seed, k), Time: t0.Add(time.Duration(k) * 500 * time.Millisecond), Source: source, Body: body, Summary: kind}
		evs = append(evs, ev)
		return ev
	}
	for len(evs) < n {
		p := r.IntN(100)
		if len(open) > 6 {
			// Results follow their actions closely, as in real logs, so
			// few actions stay pending at once.
			p = 40
		}
		switch {
		case p < 8:
			add("MessageEvent", "user", &model.Message{Role: "user"})
		case p < 30:
			resp++
			calls := 1 + r.IntN(3)
			for c := 0; c < calls && len(evs) < n; c++ {
				a := &model.Action{ActionKind: "TerminalAction", ToolName: "terminal", ToolCallID: fmt.Sprintf("call-%d-%d", resp, c), LLMResponseID: fmt.Sprintf("resp-%d", resp), SecurityRisk: []string{"LOW", "MEDIUM", "HIGH", "UNKNOWN"}[r.IntN(4)]}
				if r.IntN(10) == 0 {
					a.ActionKind, a.TaskCommand = "TaskTrackerAction", "plan"
					a.Plan = []model.Task{{Title: "one", Status: "todo"}, {Title: "two", Status: "done"}}
				}
				open = append(open, add("ActionEvent", "agent", a))
			}
		case p < 55 && len(open) > 0:
			k := r.IntN(len(open))
			a := open[k]
			open = append(open[:k], open[k+1:]...)
			ab := a.Body.(*model.Action)
			switch q := r.IntN(20); {
			case q == 0:
				add("AgentErrorEvent", "agent", &model.AgentError{ToolCallID: ab.ToolCallID, Error: "failed"})
			case q == 1:
				add("UserRejectObservation", "user", &model.UserReject{ActionID: a.ID, ToolCallID: ab.ToolCallID, RejectionSource: "user"})
			default:
				o := &model.Observation{ObservationKind: "TerminalObservation", ActionID: a.ID, ToolCallID: ab.ToolCallID, IsError: q == 2}
				if ab.ActionKind == "TaskTrackerAction" {
					o.ObservationKind, o.TaskList, o.HasTaskList = "TaskTrackerObservation", ab.Plan, true
				}
				add("ObservationEvent", "environment", o)
			}
		case p < 65:
			prompt += int64(r.IntN(5000))
			completion += int64(r.IntN(500))
			cost += float64(r.IntN(100)) / 1000
			add("ConversationStateUpdateEvent", "environment", &model.StateUpdate{Key: "stats", Stats: snapshotStats(cost, prompt, completion, prompt/3)})
		case p < 72:
			st := []string{"running", "finished", "paused", "waiting_for_confirmation", "error", "stuck", "idle"}[r.IntN(7)]
			add("ConversationStateUpdateEvent", "environment", &model.StateUpdate{Key: "execution_status", ExecutionStatus: st, FullState: r.IntN(4) == 0})
		case p < 80:
			resp++
			add("MessageEvent", "agent", &model.Message{Role: "assistant", LLMResponseID: fmt.Sprintf("resp-%d", resp)})
		case p < 82:
			var ids []string
			for j := 0; j < 3 && len(evs) > 0; j++ {
				ids = append(ids, evs[r.IntN(len(evs))].ID)
			}
			add("Condensation", "environment", &model.Condensation{ForgottenIDs: ids, LLMResponseID: fmt.Sprintf("cond-%d", len(evs))})
		case p < 84:
			add("ConversationErrorEvent", "environment", &model.ConversationError{Code: "MaxIterationsReached"})
		case p < 86:
			add("PauseEvent", "user", &model.Pause{})
		case p < 88:
			add(fmt.Sprintf("Experimental%dEvent", r.IntN(3)), "agent", &model.Unknown{})
		case p < 90:
			add("ACPToolCallEvent", "agent", &model.ACPToolCall{ToolCallID: fmt.Sprintf("acp-%d", r.IntN(5)), Status: "completed", IsError: r.IntN(3) == 0})
		case p < 92 && len(evs) > 0:
			evs = append(evs, evs[r.IntN(len(evs))]) // a replayed duplicate
		default:
			add("StreamingDeltaEvent", "agent", &model.StreamingDelta{})
		}
	}
	return evs[:n]
}
