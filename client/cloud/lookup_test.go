package cloud

import (
	"context"
	"errors"
	"testing"
)

// TestLookupLeavesTheSandboxAsItIs reads one conversation by id: a paused
// one stays paused (no resume is sent), a running one can be watched
// (Live), and an unknown id is ErrNotFound.
func TestLookupLeavesTheSandboxAsItIs(t *testing.T) {
	for _, status := range []string{"PAUSED", "RUNNING"} {
		h := newHarness(t)
		h.cloud.addConversation(status)
		s := h.session(t, h.config())
		c, err := s.Lookup(context.Background(), fakeConvID)
		if err != nil {
			t.Fatal(err)
		}
		if c.ID != fakeConvID || c.Paused() != (status == "PAUSED") || c.Running() != (status == "RUNNING") {
			t.Fatalf("%s: looked up %s", status, c)
		}
		if status == "RUNNING" {
			target, err := s.Live(context.Background(), c)
			if err != nil || target.SessionKey != fakeSessionKey || target.AgentServerURL != "https://sb-old.runtime.example" {
				t.Fatalf("Live: %s, %v", target, err)
			}
		}
		if _, resumes, _ := h.cloud.snapshot(); len(resumes) != 0 {
			t.Errorf("%s: resumed %v", status, resumes)
		}
		if _, err := s.Lookup(context.Background(), "0123456789abcdef0123456789abcdef"); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown id: %v, want ErrNotFound", err)
		}
	}
}
