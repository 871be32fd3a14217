package headless

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
)

// action returns an ActionEvent of that risk, as the SDK records one.
func action(t *testing.T, risk, summary string) model.Event {
	t.Helper()
	seq++
	return ev(t, "ActionEvent", fmt.Sprintf(`"action":{"command":"git push --force","kind":"TerminalAction"},"tool_name":"terminal",`+
		`"tool_call_id":"call-%d","llm_response_id":"resp-%d","security_risk":%q,"summary":%q,`, seq, seq, risk, summary))
}

// TestTextMarksHighRiskAndAwaitedActions checks that a reader of the text
// lines cannot miss a HIGH-risk action or the action the conversation
// waits on: the recorded HIGH-risk action that put confirmation_mode into
// waiting_for_confirmation is marked on its own line; in a live stream,
// where the status arrives after the action, the status line is followed
// by the actions awaited. JSONL carries the same as fields.
func TestTextMarksHighRiskAndAwaitedActions(t *testing.T) {
	_, out := run(t, feedOf(true, testevents.Twin(t, "confirmation_mode")), Options{Recording: true})
	if !strings.Contains(out, "  .. ActionEvent  [HIGH risk, awaiting confirmation] Run rm -rf /tmp/scratch\n") {
		t.Errorf("the recorded HIGH-risk action is not marked:\n%s", out)
	}
	if n := strings.Count(out, "[HIGH risk"); n != 1 {
		t.Errorf("%d lines marked HIGH risk, want 1:\n%s", n, out)
	}

	live := []model.Event{fullState(t, "running"), action(t, "HIGH", "Force-push the branch"), perField(t, "waiting_for_confirmation")}
	_, out = run(t, feedOf(true, live), Options{})
	for _, want := range []string{
		"  .. ActionEvent  [HIGH risk] Force-push the branch\n",
		"  >> execution_status=waiting_for_confirmation (per-field)\n     (awaiting confirmation: #2 terminal [HIGH] Force-push the branch)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("live output lacks %q:\n%s", want, out)
		}
	}
	_, out = run(t, feedOf(true, live), Options{JSON: true})
	var sawRisk, sawAwait bool
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var v struct {
			Type, Kind string
			Risk       string `json:"security_risk"`
		}
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("invalid JSONL %q: %v", line, err)
		}
		sawRisk = sawRisk || (v.Type == "event" && v.Risk == "HIGH")
		sawAwait = sawAwait || (v.Type == "awaiting_confirmation" && v.Risk == "HIGH")
	}
	if !sawRisk || !sawAwait {
		t.Errorf("JSONL lacks the risk (%v) or the awaited action (%v):\n%s", sawRisk, sawAwait, out)
	}
}

// countingWriter counts the writes that reach it.
type countingWriter struct{ writes, bytes int }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	c.bytes += len(p)
	return len(p), nil
}

// TestLinesAreWrittenPerBatch checks that the lines of a batch reach the
// output in a few large writes, not one write (one system call) per line:
// a 2,000-event recording in four batches is written in a handful.
func TestLinesAreWrittenPerBatch(t *testing.T) {
	evs := testevents.Generated(t, 2000, 5)
	feed := feedOf(true, evs[:500], evs[500:1000], evs[1000:1500], evs[1500:])
	var out countingWriter
	r := Run(t.Context(), reducer.NewLog(nil, 0), feed, Options{Out: &out, Recording: true})
	if r.Events != len(evs) {
		t.Fatalf("events = %d", r.Events)
	}
	// 64 KiB buffers: the lines of 2,000 events are a few hundred KiB.
	if limit := 4 + out.bytes/(64<<10) + 4; out.writes > limit {
		t.Errorf("%d writes for %d bytes of %d events, want at most %d", out.writes, out.bytes, len(evs), limit)
	}
}
