package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"ohwatch/headless"
	"ohwatch/serve"
)

// TestWatchSaysTheRuntimeStatus: a server with conversation runtimes
// answers GET /{id}/runtime (upstream ConversationRuntimeInfo, models.py;
// docker_runtime/routers.py runtime_info; PR #4966, SDK 1.48). A headless
// watch says what it reports, apart from the status: a runtime missing is
// neither an error nor an end, and the conversation's own end decides the
// exit code.
func TestWatchSaysTheRuntimeStatus(t *testing.T) {
	t.Parallel()
	_, url, _ := servePaced(t, serve.Faults{Docker: true, Runtime: "missing", RuntimeCanResume: true})
	code, out, errs := runCmd(t, nil, "watch", url, "--conversation", guardConv, "--headless", "--json")
	if code != headless.ExitFinished {
		t.Fatalf("exit %d, want 0 (the conversation finished)\n%s", code, errs)
	}
	var notes []string
	var result map[string]any
	for _, line := range strings.Split(out, "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) != nil {
			continue
		}
		switch m["type"] {
		case "runtime":
			notes = append(notes, m["message"].(string))
		case "result":
			result = m
		}
	}
	if len(notes) != 1 || notes[0] != "runtime missing (can resume)" {
		t.Errorf("runtime notes %q, want one saying the runtime is missing", notes)
	}
	if result == nil || result["status"] != "finished" {
		t.Errorf("result %v, want finished", result)
	}
}
