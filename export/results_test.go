package export

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"ohwatch/internal/testevents"
)

// TestParallelResultsNameTheirActions: the results of parallel calls come
// after all the calls; each names the action it answers (the log's
// reducer.Log.ActionOf, as on every screen), even when two calls share a
// tool call id, while a result right after its action needs no name.
func TestParallelResultsNameTheirActions(t *testing.T) {
	action := func(n int, call, cmd string) string {
		return fmt.Sprintf(`{"id":"a%d","source":"agent","thought":[],"action":{"command":%q,"kind":"TerminalAction"},"tool_name":"terminal","tool_call_id":%q,"llm_response_id":"r1","kind":"ActionEvent"}`, n, cmd, call)
	}
	obs := func(n int, call, out string, exit int) string {
		return fmt.Sprintf(`{"id":"o%d","source":"environment","tool_name":"terminal","tool_call_id":%q,"action_id":"a%d","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":%q}],"exit_code":%d},"kind":"ObservationEvent"}`, n, call, n, out, exit)
	}
	evs := testevents.Decode(t,
		[]byte(action(1, "call_0", "echo one")), []byte(action(2, "call_0", "false")),
		[]byte(obs(1, "call_0", "one", 0)), []byte(obs(2, "call_0", "", 1)),
		[]byte(action(3, "call_1", "echo three")), []byte(obs(3, "call_1", "three", 0)),
		[]byte(action(4, "call_2", "rm -rf /")),
		[]byte(`{"id":"x4","source":"user","tool_name":"terminal","tool_call_id":"call_2","action_id":"a4","rejection_reason":"no","kind":"UserRejectObservation"}`))
	var buf bytes.Buffer
	if err := Markdown(&buf, "t", logOf(evs), true); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"Output of #1 (exit 0):\n\n```\none\n", "Output of #2 (exit 1):", "Output (exit 0):\n\n```\nthree\n", "**UserRejectObservation** — "} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, " of #") != 2 {
		t.Errorf("results right after their actions are named too:\n%s", out)
	}
}
