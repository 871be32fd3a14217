package session

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"ohwatch/serve"
	convui "ohwatch/tui/conversation"
)

// TestConfirmerWithholdsStaleAnswers: the TUI's controls, against the demo
// served for real, turn the server-side check into convui.ErrNotSent with the
// reason, so the footer can say why nothing was sent.
func TestConfirmerWithholdsStaleAnswers(t *testing.T) {
	base, _, _, c := serveDemo(t, serve.Options{Speed: 0})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cf := confirmer{c: c, id: base.ID}
	err := cf.Respond(ctx, false, []string{"0f0e0d0c-0b0a-4908-8706-050403020100"})
	if !errors.Is(err, convui.ErrNotSent) || !strings.HasPrefix(err.Error(), "not sent: the conversation is ") {
		t.Fatalf("a stale answer: %v", err)
	}
}
