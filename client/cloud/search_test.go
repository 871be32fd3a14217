package cloud

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"ohwatch/internal/redact"
	"ohwatch/model"
)

// TestConversationsFollowsEveryPage lists an account of 250 conversations
// (three pages of the app server's largest page): each comes once, in
// order, with its title, statuses, metrics snapshot and parent, and the
// search asks for sub-conversations too.
func TestConversationsFollowsEveryPage(t *testing.T) {
	h := newHarness(t)
	for i := range 250 {
		status := "PAUSED"
		if i%2 == 0 {
			status = "RUNNING"
		}
		c := h.cloud.list(fmt.Sprintf("%032x", i+1), fmt.Sprint("task ", i), status)
		if i == 3 {
			c["parent_conversation_id"] = fmt.Sprintf("%032x", 1)
		}
	}
	s := h.session(t, h.config())
	got, err := s.Conversations(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 250 {
		t.Fatalf("%d conversations, want 250", len(got))
	}
	for i, c := range got {
		if c.ID != fmt.Sprintf("%032x", i+1) || c.Title != fmt.Sprint("task ", i) {
			t.Fatalf("conversation %d is %s %q", i, c.ID, c.Title)
		}
		if c.Paused() == (i%2 == 0) || c.Running() != (i%2 == 0) {
			t.Errorf("%s: sandbox %s, paused %v", c.ID, c.SandboxStatus, c.Paused())
		}
	}
	if m := got[0].Metrics; m == nil || m.AccumulatedCost != 0.25 || m.Accumulated.Prompt != 1000 {
		t.Errorf("metrics snapshot %+v", got[0].Metrics)
	}
	if got[3].ParentID != fmt.Sprintf("%032x", 1) || got[0].ExecutionStatus != "running" || got[1].ExecutionStatus != "" {
		t.Errorf("parent %q, statuses %q %q", got[3].ParentID, got[0].ExecutionStatus, got[1].ExecutionStatus)
	}
	_, _, reqs := h.cloud.snapshot()
	pages := 0
	for _, r := range reqs {
		if r.Path == "/api/v1/app-conversations/search" {
			pages++
			if !strings.Contains(r.RawQuery, "include_sub_conversations=true") {
				t.Errorf("search without sub-conversations: %s", r.RawQuery)
			}
		}
	}
	if pages != 3 {
		t.Errorf("%d pages asked, want 3", pages)
	}
	if s := fmt.Sprintf("%v %#v", got[0], got[0]); strings.Contains(s, fakeSessionKey) {
		t.Errorf("a conversation prints its session key: %s", s)
	}
}

// TestStoredEventsOfAPausedConversation reads the events Cloud stored for
// a paused conversation, every page, without resuming its sandbox; Live
// refuses it for the same reason.
func TestStoredEventsOfAPausedConversation(t *testing.T) {
	h := newHarness(t)
	const id = "0123456789abcdef0123456789abcdef"
	h.cloud.list(id, "paused one", "PAUSED")
	for i := range 130 {
		h.cloud.store(id, []byte(fmt.Sprintf(`{"kind":"MessageEvent","id":"ev-%03d","timestamp":"2026-08-13T10:00:00","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"m %d"}]}}`, i, i)))
	}
	h.cloud.store(id, []byte(`[1,2]`)) // not an object: skipped
	// An agent that printed its environment: the API key is cut out.
	h.cloud.store(id, []byte(`{"kind":"MessageEvent","id":"ev-env","timestamp":"2026-08-13T10:00:01","source":"agent","llm_message":{"role":"assistant","content":[{"type":"text","text":"OH_API_KEY=`+testAPIKey+`"}]}}`))
	s := h.session(t, h.config())
	convs, err := s.Conversations(context.Background())
	if err != nil || len(convs) != 1 || !convs[0].Paused() {
		t.Fatalf("listing %v, %v", convs, err)
	}
	var got []model.Event
	err = s.StoredEvents(context.Background(), id, func(evs []model.Event, _ []string) error {
		got = append(got, evs...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 131 || got[0].ID != "ev-000" || got[129].ID != "ev-129" || got[130].ID != "ev-env" {
		t.Fatalf("%d stored events", len(got))
	}
	if raw := string(got[130].Raw); strings.Contains(raw, testAPIKey) || !strings.Contains(raw, "OH_API_KEY="+redact.Redacted) {
		t.Errorf("the API key reached a stored event: %s", raw)
	}
	if _, err := s.Live(context.Background(), convs[0]); !errors.Is(err, ErrSandbox) {
		t.Errorf("Live of a paused conversation: %v, want ErrSandbox", err)
	}
	_, resumes, reqs := h.cloud.snapshot()
	if len(resumes) != 0 {
		t.Errorf("resumed %v", resumes)
	}
	for _, r := range reqs {
		if r.Method != "GET" {
			t.Errorf("a listing sent %s %s", r.Method, r.Path)
		}
	}
}

// TestLiveOfARunningConversation gives the agent-server of a running
// conversation from its conversation_url, with its session key, and
// learns the key as a secret.
func TestLiveOfARunningConversation(t *testing.T) {
	h := newHarness(t)
	const id = "0123456789abcdef0123456789abcdef"
	h.cloud.list(id, "running one", "RUNNING")
	s := h.session(t, h.config())
	convs, err := s.Conversations(context.Background())
	if err != nil || len(convs) != 1 {
		t.Fatalf("listing %v, %v", convs, err)
	}
	target, err := s.Live(context.Background(), convs[0])
	if err != nil {
		t.Fatal(err)
	}
	if target.AgentServerURL != "https://sb-012345.runtime.example" || target.SessionKey != fakeSessionKey || target.ConversationID != id {
		t.Fatalf("target %s", target)
	}
	if got := s.Redact("key " + fakeSessionKey); strings.Contains(got, fakeSessionKey) {
		t.Errorf("the session key is not redacted: %s", got)
	}
}

// TestZeroMetricsAreUnknown: a listing whose metrics say no cost and no
// tokens (what the 2025-11 app server lists for every conversation, one
// that ran an LLM too) gives no metrics, so nothing shows a false $0.00;
// a real snapshot is kept.
func TestZeroMetricsAreUnknown(t *testing.T) {
	h := newHarness(t)
	zero := h.cloud.list(fmt.Sprintf("%032x", 1), "zeros", "PAUSED")
	zero["metrics"] = map[string]any{"model_name": "default", "accumulated_cost": 0.0,
		"accumulated_token_usage": map[string]any{"prompt_tokens": 0, "completion_tokens": 0}}
	h.cloud.list(fmt.Sprintf("%032x", 2), "spent", "PAUSED")
	got, err := h.session(t, h.config()).Conversations(context.Background())
	if err != nil || len(got) != 2 {
		t.Fatalf("%d conversations, %v", len(got), err)
	}
	if got[0].Metrics != nil {
		t.Errorf("zero snapshot read as known metrics %+v", got[0].Metrics)
	}
	if got[1].Metrics == nil || got[1].Metrics.AccumulatedCost != 0.25 {
		t.Errorf("real snapshot lost: %+v", got[1].Metrics)
	}
}
