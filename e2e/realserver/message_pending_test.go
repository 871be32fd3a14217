package realserver

import (
	"context"
	"strings"
	"testing"

	"ohwatch/client/agentserver"
	"ohwatch/internal/termtest"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/conversation"
)

// steering is controls that also steer and say what a message does to
// pending actions, as session's confirmer does, over the same client.
type steering struct{ *controls }

func (s steering) Pause(ctx context.Context) error     { return s.c.Pause(ctx, s.id) }
func (s steering) Run(ctx context.Context) error       { return s.c.Run(ctx, s.id) }
func (s steering) Interrupt(ctx context.Context) error { return s.c.Interrupt(ctx, s.id) }
func (s steering) Message(ctx context.Context, text string, run bool) error {
	return s.c.PostMessage(ctx, s.id, text, run)
}
func (s steering) Policy(ctx context.Context, p string) (string, error) { return p, nil }
func (s steering) MessageEffect(ctx context.Context) (conversation.MessageEffect, string) {
	e, v := s.c.MessageEffect(ctx)
	if e == agentserver.MessageEffectApproves {
		return conversation.MessageEffectApproves, v
	}
	return conversation.MessageEffectUnknown, v
}

// waitingConversation creates a conversation that waits for confirmation
// of one action, and returns its id and that action's id.
func waitingConversation(t *testing.T, c *agentserver.Client) (id, action string) {
	t.Helper()
	id = model.NormalizeConversationID(shared.create(t, convSpec{message: "Plan, then finish.", confirm: true, tracker: true}))
	shared.waitStatus(t, id, model.StatusWaitingForConfirmation)
	evs, err := c.Events(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	log := reducer.NewLog(nil, 0)
	log.Append(evs...)
	pending := log.Latest().Pending
	if len(pending) != 1 {
		t.Fatalf("%d pending actions", len(pending))
	}
	return id, pending[0].ID
}

// ranAction reports whether conversation id holds the result of action.
func ranAction(t *testing.T, c *agentserver.Client, id, action string) (ran, rejected bool) {
	t.Helper()
	evs, err := c.Events(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		switch b := ev.Body.(type) {
		case *model.Observation:
			ran = ran || b.ActionID == action
		case *model.UserReject:
			rejected = rejected || b.ActionID == action
		}
	}
	return ran, rejected
}

// TestMessageWhilePendingOnTheRealServer: on the real 1.43.1 server a
// message sent while an action waits approves it (the premise of M's
// question, and of serve's imitation), /server_info says 1.43.1, and M in
// the TUI asks first and, on x, rejects the action before the message
// goes, so it never runs.
func TestMessageWhilePendingOnTheRealServer(t *testing.T) {
	t.Parallel()
	c, err := agentserver.New(shared.url(), serverKey)
	if err != nil {
		t.Fatal(err)
	}
	if e, v := c.MessageEffect(context.Background()); e != agentserver.MessageEffectApproves || v != "1.43.1" {
		t.Fatalf("the real server: effect %v, version %q", e, v)
	}
	t.Run("a message approves", func(t *testing.T) {
		t.Parallel()
		id, action := waitingConversation(t, c)
		if err := c.PostMessage(context.Background(), id, "Wait, do NOT run that.", true); err != nil {
			t.Fatal(err)
		}
		shared.waitStatus(t, id, model.StatusFinished)
		if ran, rejected := ranAction(t, c, id, action); !ran || rejected {
			t.Fatalf("after a message: the action ran %v, rejected %v (upstream 1.43.1 runs it)", ran, rejected)
		}
	})
	t.Run("M rejects first", func(t *testing.T) {
		t.Parallel()
		id, action := waitingConversation(t, c)
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		k := steering{&controls{c: c, id: id}}
		log := reducer.NewLog(nil, 0)
		m := conversation.New(conversation.Options{Title: id, Source: "ws " + shared.url(), Log: log, Live: true, NoColor: true,
			Server: shared.url(), Conversation: id, Feed: c.Watch(ctx, id, agentserver.WatchOptions{}), Controls: k})
		s := &tuiSession{t: t, tm: termtest.Start(t, m, 160, 48), log: log, k: k.controls}
		s.waitLog("waiting for confirmation", func(l *reducer.Log) bool { return len(l.Latest().Pending) == 1 })
		s.press("M")
		s.tm.WaitFor(t, runBound, "(SDK 1.43.1) a message approves")
		s.press("n", "o", "enter")
		s.tm.WaitFor(t, runBound, "reject first, then send")
		if ran, rejected := ranAction(t, c, id, action); ran || rejected {
			t.Fatalf("enter sent something before asking: ran %v, rejected %v", ran, rejected)
		}
		s.press("x")
		s.tm.WaitFor(t, runBound, "then sent the message")
		shared.waitStatus(t, id, model.StatusFinished, model.StatusIdle)
		if ran, rejected := ranAction(t, c, id, action); ran || !rejected {
			t.Fatalf("after x: the action ran %v, rejected %v", ran, rejected)
		}
		if screen := s.quit(); strings.Contains(screen, "approved") {
			t.Errorf("the footer says the message approved:\n%s", screen)
		}
	})
}
