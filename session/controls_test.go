package session

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/client/agentserver"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/serve"
	convui "ohwatch/tui/conversation"
)

// drive runs a view's command as the program would and hands its
// messages back to the view; a command still waiting after a moment is a
// tick (the footer's expiry), or a request the test waits for through
// reported, and is dropped.
func drive(t *testing.T, m *convui.Conversation, cmd tea.Cmd) {
	t.Helper()
	if cmd == nil {
		return
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				drive(t, m, c)
			}
			return
		}
		if msg != nil {
			drive(t, m, m.Update(msg))
		}
	case <-time.After(2 * time.Second):
	}
}

// pressView sends the keys to the view and runs what they start.
func pressView(t *testing.T, m *convui.Conversation, keys ...string) {
	t.Helper()
	for _, k := range keys {
		msg := tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
		if k == "enter" {
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		}
		drive(t, m, m.Update(msg))
	}
}

// TestTUIControlsActOnTheServer drives the conversation view's controls,
// wired as watch wires them, against serve over real sockets, and checks
// each one's effect on the server.
func TestTUIControlsActOnTheServer(t *testing.T) {
	t.Parallel()
	srv, url, _ := servePaced(t, serve.Faults{})
	c, _ := agentserver.New(url, "")
	done := make(chan string, 8)
	ctx := context.Background()
	status := func() string {
		info, err := c.Conversation(ctx, guardConv)
		if err != nil {
			t.Fatal(err)
		}
		return info.ExecutionStatus
	}
	view := func() *convui.Conversation {
		evs, err := c.Events(ctx, guardConv)
		if err != nil {
			t.Fatal(err)
		}
		log := reducer.NewLog(nil, 0)
		log.Append(evs...)
		m := convui.NewConversation(convui.Options{Log: log, Live: true, Feed: make(chan model.Batch), Controls: reported{confirmer{c: c, id: guardConv}, done}, NoColor: true})
		m.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
		return m
	}
	// The replay's start: WaitStatus wakes when the server sends the
	// status; the bound only ends a failure.
	started, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := srv.WaitStatus(started, guardConv, model.StatusRunning); err != nil {
		t.Fatal(err)
	}
	pressView(t, view(), "p")
	answered(t, done, "pause")
	if status() != model.StatusPaused {
		t.Fatalf("p: the server reports %s", status())
	}
	pressView(t, view(), "R")
	answered(t, done, "run")
	if status() == model.StatusPaused {
		t.Fatal("R: still paused")
	}
	pressView(t, view(), "I", "y")
	answered(t, done, "interrupt")
	if status() != model.StatusPaused {
		t.Fatalf("I y: the server reports %s", status())
	}
	before, _ := c.CountEvents(ctx, guardConv)
	m := view()
	pressView(t, m, "M", "o", "k")
	drive(t, m, m.Update(tea.KeyPressMsg{Code: tea.KeyTab}))
	pressView(t, m, "enter")
	answered(t, done, "message")
	evs, _ := c.Events(ctx, guardConv)
	if after := len(evs); after != before+1 || !strings.Contains(string(evs[len(evs)-1].Raw), `"ok"`) || status() != model.StatusPaused {
		t.Fatalf("M ok tab enter: %d → %d events, status %s", before, after, status())
	}
	pressView(t, view(), "C", "5", "y")
	answered(t, done, "policy")
	found := false
	for _, ev := range mustEvents(t, c) {
		if u, ok := ev.Body.(*model.StateUpdate); ok && u.ConfirmationPolicy == agentserver.PolicyAlways {
			found = true
		}
	}
	if !found {
		t.Error("C 5 y: no confirmation_policy update on the server")
	}
}

// reported is the view's Steering in a test: each request, once the
// server has answered it, is named on done. The server acts on a control
// before it answers, so the test reads the server's state after waiting
// for the answer, however slow the machine is.
type reported struct {
	confirmer
	done chan<- string
}

func (r reported) Pause(ctx context.Context) error {
	defer func() { r.done <- "pause" }()
	return r.confirmer.Pause(ctx)
}

func (r reported) Run(ctx context.Context) error {
	defer func() { r.done <- "run" }()
	return r.confirmer.Run(ctx)
}

func (r reported) RunWaiting(ctx context.Context, say func(string)) error {
	defer func() { r.done <- "run" }()
	return r.confirmer.RunWaiting(ctx, say)
}

func (r reported) Interrupt(ctx context.Context) error {
	defer func() { r.done <- "interrupt" }()
	return r.confirmer.Interrupt(ctx)
}

func (r reported) Message(ctx context.Context, text string, run bool) error {
	defer func() { r.done <- "message" }()
	return r.confirmer.Message(ctx, text, run)
}

func (r reported) Policy(ctx context.Context, policy string) (string, error) {
	defer func() { r.done <- "policy" }()
	return r.confirmer.Policy(ctx, policy)
}

// answered waits until the server has answered the control what; the
// bound only catches a hang.
func answered(t *testing.T, done <-chan string, what string) {
	t.Helper()
	select {
	case got := <-done:
		if got != what {
			t.Fatalf("the server answered %s, not %s", got, what)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no answer to %s", what)
	}
}

func mustEvents(t *testing.T, c *agentserver.Client) []model.Event {
	t.Helper()
	evs, err := c.Events(context.Background(), guardConv)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}
