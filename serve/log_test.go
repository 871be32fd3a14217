package serve

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"ohwatch/model"
)

// lockedBuffer is a log sink safe for the server's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestLogsNeverContainKeys(t *testing.T) {
	var sink lockedBuffer
	logger := slog.New(slog.NewTextHandler(&sink, &slog.HandlerOptions{Level: slog.LevelDebug}))
	_, base := start(t, Options{Key: testKey, Logger: logger}, map[string][]model.Event{convID: basicRun(t)})
	const wrong = "wrong-key-that-must-not-be-logged"

	get(t, base+"/api/conversations/"+convID, testKey, nil)
	get(t, base+"/api/conversations/"+convID, wrong, nil)
	_, _, _ = dialRaw(base, convID, "session_api_key="+url.QueryEscape(wrong), nil)
	_, _, _ = dialRaw(base, convID, "", http.Header{"X-Session-Api-Key": {wrong}})
	ws := dial(t, base, convID, "session_api_key="+url.QueryEscape(testKey), nil)
	ws.next()
	bad := dial(t, base, convID, "", nil)
	bad.auth(wrong)
	bad.closeCode()

	out := sink.String()
	if !strings.Contains(out, "socket subscribed") || !strings.Contains(out, "first-frame auth failed") {
		t.Fatalf("the log misses the socket events:\n%s", out)
	}
	for _, secret := range []string{testKey, wrong} {
		if strings.Contains(out, secret) {
			t.Errorf("the log contains a key:\n%s", out)
		}
	}
}
