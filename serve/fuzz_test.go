package serve

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// FuzzClientFrame feeds arbitrary client frames to a subscribed socket's
// handler: every frame is ignored (auth), appended as one user message, or
// answered with one ServerErrorEvent; none panics.
func FuzzClientFrame(f *testing.F) {
	for _, ev := range testevents.Twin(f, "simple_echo_hello_world") {
		if m, ok := ev.Body.(*model.Message); ok && m.Role == "user" {
			var e struct {
				LLMMessage json.RawMessage `json:"llm_message"`
			}
			_ = json.Unmarshal(ev.Raw, &e)
			f.Add(string(e.LLMMessage))
		}
	}
	for _, seed := range []string{`{"type":"auth","session_api_key":"k"}`, `{"role":"user","content":[]}`, `[]`, `{`, `null`, `{"role":"user","content":[{"type":"image","image_urls":["data:x"]}]}`} {
		f.Add(seed)
	}
	s := New(Options{})
	defer s.Close()
	f.Fuzz(func(t *testing.T, frame string) {
		c := newConversation("fuzz", nil, nil, &Options{}, newFaultState(Faults{}), nil)
		sub := newSubscriber()
		c.subscribe(sub, resend{}, Faults{})
		sub.take()
		s.clientFrame(c, sub, websocket.MessageText, []byte(frame))
		replies := sub.take()
		stored := len(c.events())
		switch {
		case stored == 1 && len(replies) == 1:
			ev, err := model.Decode(replies[0])
			if err != nil || ev.Kind != "MessageEvent" || ev.Source != "user" {
				t.Fatalf("appended %s", replies[0])
			}
		case stored == 0 && len(replies) == 1:
			ev, err := model.Decode(replies[0])
			if err != nil || ev.Kind != "ServerErrorEvent" {
				t.Fatalf("answered %s", replies[0])
			}
		case stored == 0 && len(replies) == 0:
			var v struct{ Type string }
			if json.Unmarshal([]byte(frame), &v) != nil || v.Type != "auth" {
				t.Fatalf("frame %q ignored", frame)
			}
		default:
			t.Fatalf("frame %q: %d stored, %d replies", frame, stored, len(replies))
		}
	})
}

// FuzzParseFault feeds arbitrary --fault specifications: each is refused
// with an error or accepted, never a panic, and accepted faults render as
// specifications that parse back to the same faults.
func FuzzParseFault(f *testing.F) {
	for _, seed := range []string{"drop-every=5", "drop-at=1,2", "drop-chance=0.5", "seed=9", "stale-state",
		"double-send", "double-send=2", "silence-after=3", "close=4001:2", "close=1013", "close=", "=", "drop-at=,", "no-tree", "no-tree=1"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		var got Faults
		if ParseFault(spec, &got) != nil {
			return
		}
		var again Faults
		for _, s := range strings.Fields(got.String()) {
			if s == "none" {
				continue
			}
			if err := ParseFault(s, &again); err != nil {
				t.Fatalf("%q (from %q) does not parse back: %v", s, spec, err)
			}
		}
		if got.String() != again.String() {
			t.Fatalf("%q renders %q, which reads back as %q", spec, got.String(), again.String())
		}
	})
}
