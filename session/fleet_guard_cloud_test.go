package session

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/guard"
	"ohwatch/headless"
	"ohwatch/internal/redact"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

// TestFleetGuardPausesACloudConversation: `fleet cloud --headless --guard`
// stops a Cloud conversation that passes the limit through its sandbox's
// agent-server (serve, over real sockets): the guard line carries the
// server's answer, the server paused it (a PauseEvent), and --until all
// ends with exit 8. Cloud itself is only read.
func TestFleetGuardPausesACloudConversation(t *testing.T) {
	srv := serve.New(serve.Options{Key: pausedAgentKey, Speed: 20})
	srv.Add(pausedConvID, nil, testevents.Generated(t, 300, 3))
	agentURL := startTestServer(t, srv)
	// Until the replay has sent its first status the sandbox reports it
	// idle, at rest, and --until all would end at once (exit 5).
	started, stop := context.WithTimeout(t.Context(), time.Minute)
	defer stop()
	if err := srv.WaitStatus(started, pausedConvID, model.StatusRunning); err != nil {
		t.Fatal(err)
	}
	cl := newPausedCloud(t, agentURL, nil)
	cl.running = true
	env := &Env{Stdout: new(bytes.Buffer), Stderr: io.Discard, Getenv: func(k string) string {
		return map[string]string{"OH_API_KEY": pausedAPIKey, "OH_API_BASE": cl.srv.URL}[k]
	}}
	rules, err := guard.ParseAll([]string{"steps>5:pause"})
	if err != nil {
		t.Fatal(err)
	}
	o := FleetOptions{Headless: true, JSON: true, Until: headless.UntilAll, Interval: 50 * time.Millisecond, Guards: rules, WatchTimeout: time.Minute}
	fl, err := BuildFleet(env, []string{"cloud"}, o, new(redact.Secrets), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := fl.Run(ctx, env, o)
	out := env.Stdout.(*bytes.Buffer).String()
	if code != headless.ExitGuard {
		t.Fatalf("exit %d\n%s", code, out)
	}
	lines := guardLines(t, out)
	if len(lines) != 1 || lines[0]["id"] != pausedConvID || lines[0]["result"] != "pause accepted by the server" {
		t.Fatalf("guard lines %v", lines)
	}
	c, _ := agentserver.New(agentURL, pausedAgentKey)
	info, err := c.Conversation(context.Background(), pausedConvID)
	if err != nil || info.ExecutionStatus != model.StatusPaused {
		t.Fatalf("the sandbox's conversation: %v, %v; want paused", info, err)
	}
	for _, r := range cl.sent() {
		if !strings.HasPrefix(r, "GET ") {
			t.Errorf("the fleet sent %s to Cloud", r)
		}
	}
}
