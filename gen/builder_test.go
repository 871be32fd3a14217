package gen

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"ohwatch/model"
)

func newTestBuilder() *Builder {
	return NewBuilder(1, time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC), DefaultEnvironment())
}

// TestParallelCallsShareTheResponse checks that only the first action of
// an LLM response carries its thought and reasoning.
func TestParallelCallsShareTheResponse(t *testing.T) {
	b := newTestBuilder()
	r := b.CallLLM(time.Second, 100, "Reading both.", "Both files matter.")
	a1 := b.ViewFile(r, "/w/a.go", 0, 0, "Read a")
	a2 := b.ViewFile(r, "/w/b.go", 0, 0, "Read b")
	for i, a := range []Action{a1, a2} {
		ev, err := model.Decode(a.Raw)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Body.(*model.Action).LLMResponseID != r.ID {
			t.Errorf("action %d has another response id", i)
		}
		hasThought := bytes.Contains(a.Raw, []byte("Reading both.")) && bytes.Contains(a.Raw, []byte("Both files matter."))
		if hasThought != (i == 0) {
			t.Errorf("action %d: thought present = %v", i, hasThought)
		}
	}
}

func TestStrReplaceResultCarriesBothVersions(t *testing.T) {
	b := newTestBuilder()
	r := b.CallLLM(time.Second, 10, "", "")
	before := "a\nold line\nc\n"
	a := b.StrReplace(r, "/w/x.go", "old line", "new line", "Edit")
	ev, after := b.StrReplaceResult(a, before)
	if after != "a\nnew line\nc\n" {
		t.Fatalf("after = %q", after)
	}
	var obs struct {
		Observation struct {
			Old string `json:"old_content"`
			New string `json:"new_content"`
		} `json:"observation"`
	}
	if err := json.Unmarshal(ev, &obs); err != nil {
		t.Fatal(err)
	}
	if obs.Observation.Old != before || obs.Observation.New != after {
		t.Errorf("observation contents %+v", obs.Observation)
	}
	// An edit whose old text is absent leaves the file as it was.
	_, same := b.StrReplaceResult(b.StrReplace(r, "/w/x.go", "missing", "x", "Edit"), before)
	if same != before {
		t.Errorf("a missing old_str changed the file: %q", same)
	}
}

func TestCondensationClampsToTheView(t *testing.T) {
	b := newTestBuilder()
	b.SystemPrompt()
	var ids []string
	for i := 0; i < 5; i++ {
		raw := b.User("message")
		ids = append(ids, string(raw[7:43]))
	}
	raw := b.Condensation(2, 100, "summary", "chatcmpl-x")
	var c struct {
		Forgotten []string `json:"forgotten_event_ids"`
		Offset    int      `json:"summary_offset"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.Forgotten, ",") != strings.Join(ids[2:], ",") || c.Offset != 2 {
		t.Errorf("forgotten %v offset %d, want %v", c.Forgotten, c.Offset, ids[2:])
	}
	if b.ViewLen() != 2 {
		t.Errorf("view has %d events after condensing, want 2", b.ViewLen())
	}
}

func TestBaseStateWithoutKeptCallsHasEmptyLists(t *testing.T) {
	b := newTestBuilder()
	b.CallLLM(time.Second, 10, "", "")
	var bs struct {
		Stats struct {
			U map[string]struct {
				Cost  float64         `json:"accumulated_cost"`
				Costs json.RawMessage `json:"costs"`
			} `json:"usage_to_metrics"`
		} `json:"stats"`
		Status string `json:"execution_status"`
	}
	if err := json.Unmarshal(b.BaseState(), &bs); err != nil {
		t.Fatal(err)
	}
	if u := bs.Stats.U["agent"]; u.Cost <= 0 || string(u.Costs) != "[]" || bs.Status != "idle" {
		t.Errorf("base state stats %+v, status %s", bs.Stats.U, bs.Status)
	}
	if !bytes.Contains(b.BaseState(), []byte(`"api_key":"**********"`)) {
		t.Error("the API key is not masked")
	}
}

func TestCostsFollowClaudePrices(t *testing.T) {
	b := newTestBuilder()
	b.CallLLM(time.Second, 1000, "", "") // 9400 fresh prompt tokens, no cache yet
	raw := b.Stats()
	ev, err := model.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	m := ev.Body.(*model.StateUpdate).Stats.UsageToMetrics["agent"]
	p := m.Accumulated
	want := (float64(p.Prompt-p.CacheRead-p.CacheWrite)*3 + float64(p.CacheWrite)*3.75 + float64(p.Completion)*15) / 1e6
	if d := m.AccumulatedCost - want; d > 1e-12 || d < -1e-12 || p.Prompt != systemTokens || p.Completion != 1000 {
		t.Errorf("cost %v for %+v, want %v", m.AccumulatedCost, p, want)
	}
	if p.ContextWindow != 200000 || p.PerTurn != p.Prompt+p.Completion {
		t.Errorf("context window %d, per turn %d", p.ContextWindow, p.PerTurn)
	}
}

// TestUserRejectAnswersTheAction: a rejection decodes as the
// UserRejectObservation of the action it names, a user's, with its reason.
func TestUserRejectAnswersTheAction(t *testing.T) {
	b := newTestBuilder()
	r := b.CallLLM(time.Second, 10, "", "")
	a := b.Terminal(r, "git push --force", 60, "Force-push", RiskHigh)
	ev, err := model.Decode(b.UserReject(a, "not on main"))
	if err != nil {
		t.Fatal(err)
	}
	u, ok := ev.Body.(*model.UserReject)
	if !ok || ev.Kind != model.KindUserReject {
		t.Fatalf("decoded %s %T, want a UserRejectObservation", ev.Kind, ev.Body)
	}
	if u.ActionID != a.ID || u.ToolCallID != a.ToolCallID || u.ToolName != a.ToolName || u.Reason != "not on main" || u.RejectionSource != "user" {
		t.Fatalf("rejection %+v does not answer action %s (%s)", u, a.ID, a.ToolCallID)
	}
}
