package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/client/agentserver"
	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/serve"
	"ohwatch/tui/conversation"
)

// TestDemoEndToEndInTheTUI runs the whole live path with the real pieces:
// the demo conversation served by the agent-server-compatible server on
// loopback, watched over the WebSocket by the client, shown by the real
// Bubble Tea program, until the status is a confirmed finished.
func TestDemoEndToEndInTheTUI(t *testing.T) {
	t.Parallel()
	base, events, url, c := serveDemo(t, serve.Options{Speed: 200, ConfirmHold: 10 * time.Millisecond, FinishConfirmDelay: 20 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	log := reducer.NewLog(nil, 0)
	m := conversation.New(conversation.Options{
		Title: base.Title, Source: "ws " + url, Log: log, Live: true, NoColor: true,
		Feed: c.Watch(ctx, base.ID, agentserver.WatchOptions{}),
	})
	tm := termtest.Start(t, m, 160, 48)
	tm.WaitUntil(t, 45*time.Second, "a confirmed finished in the TUI's log", func() bool {
		s := log.Latest()
		return s.Status == model.StatusFinished && s.StatusConfirmed
	})
	// The TUI's log holds it once Update has folded it: the last model's
	// view shows it whatever the renderer has drawn by then.
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	screen := tm.Final(t, 5*time.Second).View().Content
	if log.Len() < len(events) {
		t.Errorf("the TUI's log holds %d events, the demo has %d", log.Len(), len(events))
	}
	if !strings.Contains(screen, "finished") || strings.Contains(screen, "finished?") {
		t.Errorf("the header does not show a confirmed finished:\n%s", screen)
	}
	if !strings.Contains(screen, "LIVE") {
		t.Errorf("the cursor does not follow the live stream:\n%s", screen)
	}
}

// serveDemo serves the bundled demo conversation on loopback with opts
// (and a session key), and returns it, its address and a client for it.
// The server stops with the test.
func serveDemo(t *testing.T, opts serve.Options) (*model.BaseState, []model.Event, string, *agentserver.Client) {
	t.Helper()
	base, events, err := demoConversation()
	if err != nil {
		t.Fatal(err)
	}
	opts.Key = "demo-e2e-key"
	srv := serve.New(opts)
	srv.Add(base.ID, base, events)
	url, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	c, err := agentserver.New(url, opts.Key)
	if err != nil {
		t.Fatal(err)
	}
	return base, events, url, c
}
