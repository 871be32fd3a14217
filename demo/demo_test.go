package demo

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"ohwatch/model"
)

// decoded is the demo decoded once per test.
func decoded(t *testing.T) ([]byte, []model.Event, [][]byte) {
	t.Helper()
	base, raws := Conversation()
	evs := make([]model.Event, len(raws))
	for i, raw := range raws {
		ev, err := model.Decode(raw)
		if err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
		if reason, unknown := model.IsUnknown(ev); unknown {
			t.Fatalf("event %d (%s) decodes as unknown: %q\n%s", i, ev.Kind, reason, raw)
		}
		evs[i] = ev
	}
	return base, evs, raws
}

func TestDemoDeterministic(t *testing.T) {
	b1, e1 := Conversation()
	b2, e2 := Conversation()
	if !bytes.Equal(b1, b2) || len(e1) != len(e2) {
		t.Fatal("two calls differ")
	}
	for i := range e1 {
		if !bytes.Equal(e1[i], e2[i]) {
			t.Fatalf("event %d differs between calls", i)
		}
	}
	e1[0][0] = 'x' // callers own their slices
	if _, e3 := Conversation(); e3[0][0] != '{' {
		t.Fatal("Conversation shares its slices between calls")
	}
}

func TestDemoShape(t *testing.T) {
	_, evs, raws := decoded(t)
	if n := len(evs); n < 250 || n > 400 {
		t.Errorf("%d events, want 250-400", n)
	}
	ids := map[string]bool{}
	for i, ev := range evs {
		if ids[ev.ID] {
			t.Fatalf("event %d: duplicate id %s", i, ev.ID)
		}
		ids[ev.ID] = true
		if i > 0 && ev.Time.Before(evs[i-1].Time) {
			t.Fatalf("event %d goes back in time", i)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, raws[i]); err != nil || !bytes.Equal(compact.Bytes(), raws[i]) {
			t.Fatalf("event %d is not compact JSON", i)
		}
	}
	// Replayed at recorded pace, the run lasts about two minutes.
	if d := evs[len(evs)-1].Time.Sub(evs[0].Time); d < 100*time.Second || d > 150*time.Second {
		t.Errorf("the run lasts %s, want about two minutes", d)
	}
	if evs[0].Kind != "SystemPromptEvent" {
		t.Errorf("first event is %s", evs[0].Kind)
	}
}

// TestDemoActionsAnswered checks that every action has its observation
// (or, for the malformed call, its AgentErrorEvent), after it.
func TestDemoActionsAnswered(t *testing.T) {
	_, evs, _ := decoded(t)
	pending := map[string]*model.Action{} // by action id
	byCall := map[string]string{}
	for i, ev := range evs {
		switch b := ev.Body.(type) {
		case *model.Action:
			pending[ev.ID] = b
			byCall[b.ToolCallID] = ev.ID
		case *model.Observation:
			a, ok := pending[b.ActionID]
			if !ok || a.ToolCallID != b.ToolCallID {
				t.Fatalf("event %d: observation without a pending action", i)
			}
			delete(pending, b.ActionID)
		case *model.AgentError:
			id, ok := byCall[b.ToolCallID]
			if !ok || pending[id] == nil {
				t.Fatalf("event %d: agent error without a pending call", i)
			}
			delete(pending, id)
		}
	}
	if len(pending) != 0 {
		t.Fatalf("%d actions never answered", len(pending))
	}
}

// TestDemoContainsEverything scans the run for each element the demo is
// there to show.
func TestDemoContainsEverything(t *testing.T) {
	base, evs, raws := decoded(t)
	var (
		commands         []string
		exits            []int
		views, edits     int
		thinks           int
		plans            [][]model.Task
		statuses         []string
		userMsgs         []int
		agentErr         = -1
		recovered        bool
		riskyAt          = -1
		condensed        []string
		stats, responses int
		usages           = map[string]bool{}
		seenResponse     = map[string]bool{}
		lastCost         float64
	)
	ids := map[string]int{}
	for i, ev := range evs {
		ids[ev.ID] = i
		switch b := ev.Body.(type) {
		case *model.Message:
			if b.Role == "user" {
				userMsgs = append(userMsgs, i)
			}
			if b.LLMResponseID != "" && !seenResponse[b.LLMResponseID] {
				seenResponse[b.LLMResponseID] = true
				responses++
			}
		case *model.Action:
			if !seenResponse[b.LLMResponseID] {
				seenResponse[b.LLMResponseID] = true
				responses++
			}
			switch b.ActionKind {
			case "TerminalAction":
				commands = append(commands, b.Command)
				if b.SecurityRisk == "HIGH" {
					riskyAt = i
				}
			case "FileEditorAction":
				if strings.Contains(string(raws[i]), `"command":"str_replace"`) {
					if !strings.Contains(string(raws[i]), `"old_str":`) || !strings.Contains(string(raws[i]), `"new_str":`) {
						t.Errorf("event %d: str_replace without old_str/new_str", i)
					}
					edits++
					if agentErr >= 0 {
						recovered = true
					}
				} else if strings.Contains(string(raws[i]), `"command":"view"`) {
					views++
				}
			case "ThinkAction":
				thinks++
			case "TaskTrackerAction":
				if b.TaskCommand == "plan" {
					plans = append(plans, b.Plan)
				}
			}
		case *model.Observation:
			if b.ExitCode != nil {
				exits = append(exits, *b.ExitCode)
			}
		case *model.AgentError:
			agentErr = i
		case *model.StateUpdate:
			if b.ExecutionStatus != "" {
				statuses = append(statuses, b.ExecutionStatus)
			}
			if b.Stats != nil {
				stats++
				lastCost = 0
				for u, m := range b.Stats.UsageToMetrics {
					usages[u] = true
					lastCost += m.AccumulatedCost
				}
			}
		case *model.Condensation:
			condensed = b.ForgottenIDs
		}
	}

	for _, want := range []string{"ls -la", "grep -n", "go test", "git diff"} {
		if !slices.ContainsFunc(commands, func(c string) bool { return strings.Contains(c, want) }) {
			t.Errorf("no terminal command containing %q", want)
		}
	}
	i := slices.Index(exits, 1)
	if i < 0 || !slices.Contains(exits[i:], 0) {
		t.Errorf("exit codes %v: want a failing run followed by passing ones", exits)
	}
	if views == 0 || edits < 3 || thinks < 2 {
		t.Errorf("views %d, edits %d, thinks %d", views, edits, thinks)
	}
	if agentErr < 0 || !recovered {
		t.Error("no AgentErrorEvent followed by a successful retry")
	}

	// The plan: 5-6 tasks, each moving forward to done.
	if len(plans) < 4 {
		t.Fatalf("%d plans", len(plans))
	}
	rank := map[string]int{"todo": 0, "in_progress": 1, "done": 2}
	seen := map[string]map[string]bool{}
	last := map[string]int{}
	for _, p := range plans {
		if len(p) < 5 || len(p) > 6 {
			t.Errorf("a plan of %d tasks", len(p))
		}
		for _, task := range p {
			if seen[task.Title] == nil {
				seen[task.Title] = map[string]bool{}
			} else if rank[task.Status] < last[task.Title] {
				t.Errorf("task %q went back to %s", task.Title, task.Status)
			}
			seen[task.Title][task.Status] = true
			last[task.Title] = rank[task.Status]
		}
	}
	full := 0
	for title, st := range seen {
		if !st["done"] || !st["in_progress"] {
			t.Errorf("task %q never went through in_progress to done", title)
		}
		if st["todo"] && st["in_progress"] && st["done"] {
			full++
		}
	}
	if full < 3 {
		t.Errorf("only %d tasks went todo -> in_progress -> done", full)
	}

	// The confirmation: a HIGH-risk command, waiting, approval, result.
	if riskyAt < 0 {
		t.Fatal("no HIGH-risk action")
	}
	var after []string
	for _, ev := range evs[riskyAt+1:] {
		if su, ok := ev.Body.(*model.StateUpdate); ok && su.ExecutionStatus != "" {
			after = append(after, su.ExecutionStatus)
		}
		if ob, ok := ev.Body.(*model.Observation); ok && ob.ActionID == evs[riskyAt].ID {
			break
		}
	}
	if !slices.Equal(after, []string{"waiting_for_confirmation", "running"}) {
		t.Errorf("statuses between the risky action and its result: %v", after)
	}

	// Turns: the request, then a follow-up and a heads-up sent while the
	// agent was running. The demo is one run: it finishes once, at the end,
	// so a watcher sees one provisional then confirmed finished.
	if len(userMsgs) < 3 {
		t.Fatalf("%d user messages", len(userMsgs))
	}
	if !slices.Equal(statuses, []string{"running", "waiting_for_confirmation", "running", "finished"}) {
		t.Errorf("statuses %v", statuses)
	}

	// Stats after every LLM call, agent and condenser.
	if !usages["agent"] || !usages["condenser"] {
		t.Errorf("usages %v", usages)
	}
	if stats != responses+1 { // +1: the condenser's call
		t.Errorf("%d stats updates for %d agent LLM responses and one condenser call", stats, responses)
	}

	// The condensation forgets earlier events.
	if len(condensed) == 0 {
		t.Fatal("no condensation")
	}
	for _, id := range condensed {
		if _, ok := ids[id]; !ok {
			t.Errorf("condensation forgets unknown event %s", id)
		}
	}
	if !slices.ContainsFunc(evs, func(ev model.Event) bool { return ev.Kind == "CondensationRequest" }) {
		t.Error("no CondensationRequest")
	}

	// The end: FinishAction, FinishObservation, execution_status=finished.
	n := len(evs)
	if a, ok := evs[n-3].Body.(*model.Action); !ok || a.ActionKind != "FinishAction" {
		t.Errorf("event %d is not the FinishAction", n-3)
	}
	if o, ok := evs[n-2].Body.(*model.Observation); !ok || o.ObservationKind != "FinishObservation" {
		t.Errorf("event %d is not the FinishObservation", n-2)
	}

	// The base state agrees with the run.
	var bs struct {
		Status string `json:"execution_status"`
		Policy struct {
			Kind string `json:"kind"`
		} `json:"confirmation_policy"`
		Leaf  string `json:"leaf_event_id"`
		Stats struct {
			Usage map[string]struct {
				Cost  float64           `json:"accumulated_cost"`
				Costs []json.RawMessage `json:"costs"`
			} `json:"usage_to_metrics"`
		} `json:"stats"`
	}
	if err := json.Unmarshal(base, &bs); err != nil {
		t.Fatal(err)
	}
	var cost float64
	calls := 0
	for _, u := range bs.Stats.Usage {
		cost += u.Cost
		calls += len(u.Costs)
	}
	if bs.Status != "finished" || bs.Policy.Kind != "ConfirmRisky" || bs.Leaf != evs[n-2].ID {
		t.Errorf("base state: status %s, policy %s, leaf %s", bs.Status, bs.Policy.Kind, bs.Leaf)
	}
	if cost != lastCost || calls != stats {
		t.Errorf("base state: cost %v over %d calls, stats say %v over %d", cost, calls, lastCost, stats)
	}
	if lastCost < 0.5 || lastCost > 5 {
		t.Errorf("total cost $%.2f is not realistic for this run", lastCost)
	}
}

// TestRejectedBranch checks the branch for a rejected force push: it follows
// the run's stop for approval, starts the run again, never pushes, ends
// finished, and its events neither repeat an id of the approved run nor go
// back in time.
func TestRejectedBranch(t *testing.T) {
	_, evs, _ := decoded(t)
	actionID, raws := Rejected()
	at := -1
	for i, ev := range evs {
		if ev.ID == actionID {
			at = i
		}
	}
	if at < 0 || evs[at].Kind != "ActionEvent" || !strings.Contains(string(evs[at].Raw), "git push --force") {
		t.Fatalf("the branch's action %s is not the force push", actionID)
	}
	stop := evs[at+1] // the status that asks for approval
	ids := map[string]bool{}
	for _, ev := range evs {
		ids[ev.ID] = true
	}
	var last model.Event
	for i, raw := range raws {
		ev, err := model.Decode(raw)
		if err != nil {
			t.Fatalf("branch event %d: %v", i, err)
		}
		if ids[ev.ID] {
			t.Errorf("branch event %d reuses id %s", i, ev.ID)
		}
		if ev.Time.Before(stop.Time) || (i > 0 && ev.Time.Before(last.Time)) {
			t.Errorf("branch event %d goes back in time", i)
		}
		if o, ok := ev.Body.(*model.Observation); ok && o.ActionID == actionID {
			t.Errorf("the branch runs the rejected push")
		}
		if u, ok := ev.Body.(*model.StateUpdate); ok && i == 0 && u.ExecutionStatus != model.StatusRunning {
			t.Errorf("the branch does not start the run again: %s", raw)
		}
		last = ev
	}
	if u, ok := last.Body.(*model.StateUpdate); !ok || u.ExecutionStatus != model.StatusFinished {
		t.Errorf("the branch ends with %s", last.Raw)
	}
	if u, ok := stop.Body.(*model.StateUpdate); !ok || u.ExecutionStatus != model.StatusWaitingForConfirmation {
		t.Errorf("the push is not followed by waiting_for_confirmation: %s", stop.Raw)
	}
}
