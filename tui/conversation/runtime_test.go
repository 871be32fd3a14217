package conversation

import (
	"strings"
	"testing"
	"time"

	"ohwatch/model"
)

// TestHeaderSaysTheRuntime: what a server with conversation runtimes says
// of the runtime (GET /{id}/runtime, upstream ConversationRuntimeInfo, PR
// #4966, SDK 1.48) and of an archive (archived_at) shows beside the
// connection in the header, and a missing runtime does not make the
// conversation's status an error or an end.
func TestHeaderSaysTheRuntime(t *testing.T) {
	t.Parallel()
	m := connModel(t, 120, 24, false, model.ConnState{Phase: model.PhaseLive})
	before := strings.Split(screen(m), "\n")
	if strings.Contains(before[0], "runtime") {
		t.Fatalf("a runtime shown before the server said one:\n%s", before[0])
	}
	for _, tc := range []struct {
		rt   model.Runtime
		want string
	}{
		{model.Runtime{Status: "missing", CanResume: true}, "runtime missing (can resume)"},
		{model.Runtime{Status: "error", Error: "start_failed: no image"}, "runtime error: start_failed: no image"},
		{model.Runtime{Status: "available", Archived: time.Date(2026, 9, 12, 0, 0, 0, 0, time.UTC)}, "archived · runtime available"},
	} {
		rt := tc.rt
		m, _ = send(m, BatchMsg{Batch: model.Batch{Runtime: &rt}})
		lines := strings.Split(screen(m), "\n")
		if !strings.Contains(lines[0], tc.want) {
			t.Errorf("header does not say %q:\n%s", tc.want, lines[0])
		}
		if lines[1] != before[1] {
			t.Errorf("the status line changed with the runtime:\n%s\nwas\n%s", lines[1], before[1])
		}
	}
}
