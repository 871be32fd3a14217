package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/headless"
)

// keyEchoes are the altered forms of a key a hostile server echoes.
func keyEchoes(key string) map[string]string {
	var uEsc, pct strings.Builder
	for i := 0; i < len(key); i++ {
		fmt.Fprintf(&uEsc, `\u%04x`, key[i])
		fmt.Fprintf(&pct, "%%%02X", key[i])
	}
	return map[string]string{
		"exact":        key,
		"upper":        strings.ToUpper(key),
		"url-escaped":  url.QueryEscape(key),
		"all-percent":  pct.String(),
		"json-escaped": uEsc.String(),
		"prefix":       key[:len(key)*2/3],
	}
}

// leaks names each echo of the key found in text.
func leaks(text, key string) []string {
	var found []string
	low := strings.ToLower(text)
	for name, echo := range keyEchoes(key) {
		if strings.Contains(low, strings.ToLower(echo)) {
			found = append(found, name)
		}
	}
	return found
}

// TestHostileServerEchoesNoFormOfTheKey runs watch against a server that
// echoes the session key, altered every way it can be, in the history,
// the conversation's title and its error bodies: stdout, stderr and --log
// must hold none of them.
func TestHostileServerEchoesNoFormOfTheKey(t *testing.T) {
	t.Parallel()
	const key = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c6b5a4"
	const id = "0123456789abcdef0123456789abcdef"
	var all []string
	for _, echo := range keyEchoes(key) {
		all = append(all, echo)
	}
	echoes := strings.Join(all, " ")
	restFails := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/events/search") && restFails:
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprintf(w, "<html>proxy error: X-Session-API-Key=%s %s</html>", echoes, strings.Repeat("padding ", 500))
		case strings.HasSuffix(r.URL.Path, "/events/search"):
			msg := `{"kind":"MessageEvent","id":"e%d","timestamp":"2026-01-27T03:56:2%d","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":%q}]}}`
			fmt.Fprintf(w, `{"items":[`+msg+`,`+msg+`],"next_page_id":null}`, 1, 1, "your key: "+echoes, 2, 2, "again: "+echoes)
		case strings.HasPrefix(r.URL.Path, "/sockets/session/"):
			// A server from before the session socket (1.45): the watch
			// reads the history over REST, where the echoes are.
			http.NotFound(w, r)
		case strings.HasPrefix(r.URL.Path, "/sockets/"):
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, "bad key %s", echoes)
		case r.URL.Path == "/api/conversations/"+id || strings.HasPrefix(r.URL.Path, "/api/conversations/"):
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, `{"detail":"session %s rejected %s"}`, echoes, strings.Repeat("padding ", 500))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	logFile := filepath.Join(t.TempDir(), "ohwatch.log")
	for _, mode := range []string{"--json", "--headless", "rest-fails"} {
		restFails = mode == "rest-fails"
		if restFails {
			mode = "--headless"
		}
		code, out, errs := runCmd(t, map[string]string{"SESSION_API_KEY": key}, "watch", srv.URL, "--conversation", id, mode, "--log", logFile, "--watch-timeout", "20s")
		if code != headless.ExitUnreachable {
			t.Fatalf("%s: exit %d\n%s\n%s", mode, code, out, errs)
		}
		logged, _ := os.ReadFile(logFile)
		if !strings.Contains(string(logged), "agent-server") || !strings.Contains(out+errs, "[redacted]") {
			t.Fatalf("%s: the test saw nothing to redact:\n%s\n%s", mode, out, logged)
		}
		for name, text := range map[string]string{"stdout": out, "stderr": errs, "--log": string(logged)} {
			if found := leaks(text, key); len(found) > 0 {
				t.Errorf("%s: %s holds the key as %v:\n%s", mode, name, found, text)
			}
		}
		for _, line := range strings.Split(out+errs, "\n") {
			if len(line) > 600 && !strings.HasPrefix(line, `{"type":"event"`) {
				t.Errorf("%s: a line of %d bytes quotes too much of a server's answer: %.120q…", mode, len(line), line)
			}
		}
	}
}
