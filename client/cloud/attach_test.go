package cloud

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestAttachRunning(t *testing.T) {
	h := newHarness(t)
	h.cloud.addConversation("RUNNING")
	s := h.session(t, h.config())
	target, err := s.Attach(context.Background(), fakeConvID)
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	want := Target{AgentServerURL: "https://sb-old.runtime.example", ConversationID: fakeConvID, SessionKey: fakeSessionKey}
	if target != want {
		t.Fatalf("target = %s, want %s", target, want)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	deletes, resumes, reqs := h.cloud.snapshot()
	if len(deletes) != 0 || len(resumes) != 0 {
		t.Errorf("attach to a running conversation deleted %v / resumed %v", deletes, resumes)
	}
	if !slices.Contains(reqs, recordedRequest{"GET", "/api/v1/app-conversations", "ids=" + fakeConvID}) {
		t.Errorf("no batch get by ids: %v", reqs)
	}
}

func TestAttachPausedResumes(t *testing.T) {
	h := newHarness(t)
	h.cloud.addConversation("PAUSED")
	s := h.session(t, h.config())
	target, err := s.Attach(context.Background(), fakeConvID)
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	if target.AgentServerURL != "https://sb-old.runtime.example" || target.SessionKey != fakeSessionKey {
		t.Fatalf("target = %s", target)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	deletes, resumes, reqs := h.cloud.snapshot()
	if !slices.Equal(resumes, []string{"sb-old"}) {
		t.Errorf("resumes = %v, want [sb-old]", resumes)
	}
	if len(deletes) != 0 {
		t.Errorf("attach deleted a sandbox it did not start: %v", deletes)
	}
	if !slices.Contains(reqs, recordedRequest{"GET", "/api/v1/sandboxes", "id=sb-old"}) {
		t.Errorf("the resumed sandbox was not polled: %v", reqs)
	}
	steps := h.progress()
	for _, w := range []string{"reading conversation", "resuming sandbox", "sandbox STARTING", "sandbox RUNNING"} {
		if !slices.Contains(steps, w) {
			t.Errorf("progress lacks %q: %q", w, steps)
		}
	}
}

func TestAttachAcceptsDashedID(t *testing.T) {
	h := newHarness(t)
	h.cloud.addConversation("RUNNING")
	s := h.session(t, h.config())
	dashed := "A1B2C3D4-E5F6-0718-293A-4B5C6D7E8F90"
	target, err := s.Attach(context.Background(), dashed)
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	if target.ConversationID != fakeConvID {
		t.Errorf("ConversationID = %q, want the server's %q", target.ConversationID, fakeConvID)
	}
}

func TestAttachFailures(t *testing.T) {
	tests := []struct {
		name    string
		status  string // "" means no such conversation
		id      string
		wantErr error
	}{
		{name: "unknown conversation", id: "ffffffffffffffffffffffffffffffff", wantErr: ErrNotFound},
		{name: "sandbox ERROR", status: "ERROR", id: fakeConvID, wantErr: ErrSandbox},
		{name: "sandbox MISSING", status: "MISSING", id: fakeConvID, wantErr: ErrSandbox},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			if tt.status != "" {
				h.cloud.addConversation(tt.status)
			}
			s := h.session(t, h.config())
			_, err := s.Attach(context.Background(), tt.id)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Attach error = %v, want %v", err, tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.id) {
				t.Errorf("error %q does not name the conversation", err)
			}
		})
	}
}

func TestAttachEmptyID(t *testing.T) {
	h := newHarness(t)
	s := h.session(t, h.config())
	if _, err := s.Attach(context.Background(), "  "); err == nil {
		t.Fatal("Attach with an empty id succeeded")
	}
}

func TestConversationIDMustBeUUID(t *testing.T) {
	for id, want := range map[string]bool{
		fakeConvID:                             true,
		"a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90": true,
		"A1B2C3D4E5F60718293A4B5C6D7E8F90":     true,
		"a1b2c3d4e5f60718293a4b5c6d7e8f9":      false,
		"../../api/conversations":              false,
		"a1b2c3d4e5f60718293a4b5c6d7e8f90?x=1": false,
		"":                                     false,
	} {
		if got := isConversationID(id); got != want {
			t.Errorf("isConversationID(%q) = %t, want %t", id, got, want)
		}
	}

	h := newHarness(t)
	h.cloud.addConversation("RUNNING")
	h.cloud.conversations[fakeConvID].id = "../evil"
	s := h.session(t, h.config())
	if _, err := s.Attach(context.Background(), fakeConvID); err == nil || !strings.Contains(err.Error(), "not a UUID") {
		t.Errorf("Attach accepted a path as the conversation id: %v", err)
	}
}
