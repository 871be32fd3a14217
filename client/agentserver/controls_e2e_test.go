package agentserver

import (
	"context"
	"errors"
	"strings"
	"testing"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

// TestControlsAgainstServe drives each control on ohwatch's own
// agent-server over real sockets and checks what it did there: pause,
// a refused pause-free run, run, interrupt, a message with and without
// run, and the confirmation policy.
func TestControlsAgainstServe(t *testing.T) {
	evs := testevents.Generated(t, 200, 4)
	s, c := startServe(t, serve.Options{Speed: 1, StartPaused: true}, treeConv, nil, evs)
	ctx := context.Background()
	status := func() string {
		info, err := c.Conversation(ctx, treeConv)
		if err != nil {
			t.Fatal(err)
		}
		return info.ExecutionStatus
	}
	if err := c.Run(ctx, treeConv); err != nil {
		t.Fatal(err)
	}
	err := c.Run(ctx, treeConv)
	var ce *ControlError
	if !errors.Is(err, ErrConflict) || !errors.As(err, &ce) || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "run refused by the server (409 Conflict)") {
		t.Errorf("run while running: %v", err)
	}
	waitUntil(t, "the first events", func() bool { n, _ := c.CountEvents(ctx, treeConv); return n >= 2 })
	if err := c.Pause(ctx, treeConv); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "paused", func() bool { return status() == model.StatusPaused })
	if !hasKind(t, c, model.KindPause) {
		t.Error("no PauseEvent after pause")
	}
	if err := c.Run(ctx, treeConv); err != nil {
		t.Fatal(err)
	}
	if err := c.Interrupt(ctx, treeConv); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "paused by interrupt", func() bool { return status() == model.StatusPaused })
	if !hasKind(t, c, model.KindInterrupt) {
		t.Error("no InterruptEvent after interrupt")
	}
	before, _ := c.CountEvents(ctx, treeConv)
	if err := c.PostMessage(ctx, treeConv, "note this\nand that", false); err != nil {
		t.Fatal(err)
	}
	if after, _ := c.CountEvents(ctx, treeConv); after != before+1 || status() != model.StatusPaused {
		t.Errorf("a message without run: %d → %d events, status %s", before, after, status())
	}
	if err := c.PostMessage(ctx, treeConv, "go on", true); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "running again", func() bool { return status() != model.StatusPaused })
	p, err := ParsePolicy("risky:medium")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.SetConfirmationPolicy(ctx, treeConv, p); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the policy's state update", func() bool {
		evs, _ := c.Events(ctx, treeConv)
		for _, ev := range evs {
			if u, ok := ev.Body.(*model.StateUpdate); ok && u.ConfirmationPolicy == PolicyRisky {
				return true
			}
		}
		return false
	})

	s.SetFaults(serve.Faults{NoInterrupt: true})
	err = c.Interrupt(ctx, treeConv)
	if !errors.Is(err, ErrControlUnsupported) || errors.Is(err, ErrNotFound) {
		t.Errorf("interrupt on a server without the route: %v", err)
	}
	if err := c.Pause(context.Background(), "ffffffffffffffffffffffffffffffff"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "no such conversation") {
		t.Errorf("pause of an unknown conversation: %v", err)
	}
}

// hasKind reports whether the conversation's events hold one of kind.
func hasKind(t *testing.T, c *Client, kind string) bool {
	t.Helper()
	evs, err := c.Events(context.Background(), treeConv)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if ev.Kind == kind {
			return true
		}
	}
	return false
}

func TestParsePolicy(t *testing.T) {
	for in, want := range map[string]string{"never": "never", "ALWAYS": "always", "risky": "risky:HIGH", "risky:low": "risky:LOW"} {
		p, err := ParsePolicy(in)
		if err != nil || p.String() != want {
			t.Errorf("ParsePolicy(%q) = %v, %v", in, p, err)
		}
	}
	for _, bad := range []string{"", "sometimes", "risky:unknown", "never:HIGH"} {
		if _, err := ParsePolicy(bad); err == nil {
			t.Errorf("ParsePolicy(%q) accepted", bad)
		}
	}
}
