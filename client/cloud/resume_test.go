package cloud

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestResumeAPausedConversation: Resume sends POST
// /api/v1/sandboxes/{sandbox_id}/resume for a listed conversation whose
// sandbox is paused, waits until it runs and returns its agent-server; the
// API key travels in headers only, never in a URL, and an answer that
// echoes it reaches no error.
func TestResumeAPausedConversation(t *testing.T) {
	h := newHarness(t)
	h.cloud.addConversation("PAUSED")
	s := h.session(t, h.config())
	listed := Conversation{ID: fakeConvID, SandboxID: "sb-old", SandboxStatus: "PAUSED"}
	target, err := s.Resume(context.Background(), listed)
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	if target.AgentServerURL != "https://sb-old.runtime.example" || target.ConversationID != fakeConvID || target.SessionKey != fakeSessionKey {
		t.Fatalf("target = %s", target)
	}
	deletes, resumes, reqs := h.cloud.snapshot()
	if !slices.Equal(resumes, []string{"sb-old"}) || len(deletes) != 0 {
		t.Errorf("resumed %v, deleted %v; want [sb-old] resumed and nothing deleted", resumes, deletes)
	}
	if !slices.Contains(reqs, recordedRequest{"POST", "/api/v1/sandboxes/sb-old/resume", ""}) {
		t.Errorf("no POST to the resume endpoint: %v", reqs)
	}
	for _, r := range reqs {
		if strings.Contains(r.Path+"?"+r.RawQuery, testAPIKey) || strings.Contains(r.Path+"?"+r.RawQuery, fakeSessionKey) {
			t.Errorf("a key in the URL of %s %s", r.Method, r.Path)
		}
	}

	// Resumed already: Resume does not resume it again.
	if _, err := s.Resume(context.Background(), listed); err != nil {
		t.Fatalf("Resume of a running one: %v", err)
	}
	if _, resumes, _ := h.cloud.snapshot(); len(resumes) != 1 {
		t.Errorf("a running sandbox was resumed again: %v", resumes)
	}

	// A Cloud that fails the resume and quotes the key: the error says so
	// without the key.
	failing := newHarness(t)
	failing.cloud.addConversation("PAUSED")
	failing.cloud.echoKeyOn = "POST /api/v1/sandboxes/sb-old/resume"
	_, err = failing.session(t, failing.config()).Resume(context.Background(), listed)
	if err == nil {
		t.Fatal("Resume against a failing Cloud succeeded")
	}
	if _, resumes, _ := failing.cloud.snapshot(); len(resumes) != 0 {
		t.Errorf("the failing Cloud resumed %v", resumes)
	}
	if strings.Contains(err.Error(), testAPIKey) || !strings.Contains(err.Error(), "[redacted]") || !strings.Contains(err.Error(), "resume") {
		t.Errorf("the error does not redact the echoed key: %v", err)
	}
}
