package redact_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"ohwatch/internal/redact"
	"ohwatch/model"
)

// TestRedactJSONKeepsTheEventAndDropsTheKey: a key echoed into an
// observation's output, as is and base64-encoded, leaves an event that
// decodes to the same kind and id, with no trace of the key in its raw
// bytes or its summary.
func TestRedactJSONKeepsTheEventAndDropsTheKey(t *testing.T) {
	const key = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c6b5a4"
	enc := base64.StdEncoding.EncodeToString([]byte("Bearer " + key))
	raw := []byte(`{"id":"e1","timestamp":"2026-01-02T03:04:05","source":"environment","kind":"ObservationEvent",` +
		`"tool_name":"terminal","tool_call_id":"c1","action_id":"a1","observation":{"kind":"TerminalObservation",` +
		`"content":[{"type":"text","text":"SESSION_API_KEY=` + key + `\nAUTH=` + enc + `"}],"exit_code":0}}`)
	out := redact.JSON(raw, key)
	if strings.Contains(string(out), key) || strings.Contains(string(out), enc[4:20]) {
		t.Fatalf("the key is still in %s", out)
	}
	ev, err := model.Decode(out)
	if err != nil {
		t.Fatalf("the redacted event does not decode: %v\n%s", err, out)
	}
	if ev.Kind != "ObservationEvent" || ev.ID != "e1" || strings.Contains(ev.Summary, key[:12]) {
		t.Fatalf("decoded %q %q %q", ev.Kind, ev.ID, ev.Summary)
	}
	if !strings.Contains(string(out), redact.Redacted) {
		t.Fatalf("nothing marks what was cut: %s", out)
	}
}

// TestRedactJSONLeavesCleanBytesAlone: an event without a secret comes
// back as the same slice (no copy), and so does any event when no secret
// is known.
func TestRedactJSONLeavesCleanBytesAlone(t *testing.T) {
	raw := []byte(`{"id":"e1","kind":"MessageEvent","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"think of the kind of key"}]}}`)
	for _, secrets := range [][]string{nil, {""}, {"k"}, {"sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c6b5a4"}} {
		if out := redact.JSON(raw, secrets...); &out[0] != &raw[0] {
			t.Errorf("secrets %q: the clean event was copied or changed: %s", secrets, out)
		}
	}
	// A one-letter test key goes only where it stands alone.
	echo := []byte(`{"id":"e2","kind":"MessageEvent","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"the key is k"}]}}`)
	out := redact.JSON(echo, "k")
	if ev, err := model.Decode(out); err != nil || ev.Kind != "MessageEvent" || !strings.Contains(string(out), "the key is "+redact.Redacted) {
		t.Fatalf("a short key: %s (%v)", out, err)
	}
}
