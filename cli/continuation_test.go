package cli

import (
	"strings"
	"testing"
	"time"

	"ohwatch/model"
)

// TestGeneratedContinuation is what a fork at the end of a served
// recording does once run: a reply that says it is made up, then finished,
// stamped from the time asked.
func TestGeneratedContinuation(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	evs := generatedContinuation(at)
	if len(evs) != 3 {
		t.Fatalf("%d events", len(evs))
	}
	reply, last := evs[1], evs[2]
	if reply.Kind != "MessageEvent" || reply.Source != "agent" || !strings.Contains(string(reply.Raw), "this reply is generated") {
		t.Errorf("reply %s", reply.Raw)
	}
	if u, ok := last.Body.(*model.StateUpdate); !ok || u.ExecutionStatus != model.StatusFinished {
		t.Errorf("last %s", last.Raw)
	}
	for _, ev := range evs {
		if ev.Time.Before(at) {
			t.Errorf("%s stamped %s, before %s", ev.Kind, ev.Time, at)
		}
	}
}
