package cloud

import (
	"strings"
	"testing"
)

// FuzzErrorDetail feeds arbitrary error bodies to the detail extraction:
// it must never panic, and what it returns must be one clean line without
// the key, whatever the server sent.
func FuzzErrorDetail(f *testing.F) {
	for _, seed := range []string{
		`{"detail":"Not authenticated"}`,
		`{"detail":[{"loc":["query","id"],"msg":"Field required","type":"missing"}]}`,
		`{"detail":{"nested":true}}`,
		`{"detail":"key ` + testAPIKey + ` \u001b[31mred"}`,
		`{"detail":"split oh-api-key-\u001b[0m7d3c1b9a5e"}`,
		`<html>502 Bad Gateway</html>`,
		``,
	} {
		f.Add([]byte(seed))
	}
	secrets := &redactor{}
	secrets.add(testAPIKey)
	a := &api{secrets: secrets}
	f.Fuzz(func(t *testing.T, body []byte) {
		got := a.detail(body)
		if strings.Contains(got, testAPIKey) {
			t.Errorf("detail %q contains the key", got)
		}
		if strings.ContainsAny(got, "\n\r\x1b\x07") {
			t.Errorf("detail %q is not one clean line", got)
		}
		if len(got) > maxDetail+len("…") {
			t.Errorf("detail is %d bytes, over the cap", len(got))
		}
	})
}

// FuzzAgentServerURL: whatever conversation_url Cloud returns, deriving and
// checking the agent-server URL never panics, and an accepted URL is an
// absolute http(s) URL without query or credentials.
func FuzzAgentServerURL(f *testing.F) {
	for _, seed := range []string{
		"https://abc.prod-runtime.all-hands.dev/api/conversations/" + fakeConvID,
		"https://runtime.example/prefix/api/conversations/x",
		"http://127.0.0.1:8000",
		"javascript:alert(1)",
		"https://u:p@h/api/conversations/x?k=v",
		"",
	} {
		f.Add(seed)
	}
	s, err := New(Config{APIKey: testAPIKey})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := s.checkAgentServerURL(agentServerFromConversationURL(raw))
		if err != nil {
			return
		}
		if !strings.HasPrefix(got, "https://") && !strings.HasPrefix(got, "http://") {
			t.Errorf("accepted %q from %q", got, raw)
		}
		if strings.ContainsAny(got, "?#@") {
			t.Errorf("accepted %q (query, fragment or credentials) from %q", got, raw)
		}
	})
}
