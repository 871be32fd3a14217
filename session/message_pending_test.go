package session

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/client/agentserver"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/serve"
	convui "ohwatch/tui/conversation"
)

// TestMessageWhilePendingTakesTheSafePath drives M on a conversation that
// waits for confirmation, wired as watch wires it, against serve imitating
// 1.43.1 (a message approves) and a server with upstream PR #5110 (its
// version names no release, so the effect is unknown): in both, nothing is
// sent before the question, and x rejects the pending action before the
// message goes, so the action never runs.
func TestMessageWhilePendingTakesTheSafePath(t *testing.T) {
	for _, tc := range []struct {
		name       string
		supersedes bool
		says       string
	}{
		{"1.43.1", false, "(SDK 1.43.1) a message approves"},
		{"pr5110", true, "(SDK " + serve.SupersedingVersion + ") a message may approve"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs := testevents.Twin(t, "confirmation_mode")
			s := serve.New(serve.Options{ConfirmHold: serve.UntilAnswered, StartPaused: true, MessageSupersedes: tc.supersedes})
			const id = "c0000000-0000-4000-8000-00000000a001"
			s.Add(id, nil, evs)
			url, err := s.Start(t.Context(), "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			c, _ := agentserver.New(url, "")
			ctx := context.Background()
			s.Run(id)
			// WaitStatus wakes when the server sends the status; the bound
			// only ends a failure.
			waiting, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			if err := s.WaitStatus(waiting, id, model.StatusWaitingForConfirmation); err != nil {
				t.Fatalf("the replay never waited for confirmation: %v", err)
			}
			held, _ := c.Events(ctx, id)
			log := reducer.NewLog(nil, 0)
			log.Append(held...)
			done := make(chan string, 8)
			m := convui.NewConversation(convui.Options{Log: log, Live: true, Feed: make(chan model.Batch), Controls: reported{confirmer{c: c, id: id}, done}, NoColor: true})
			m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
			pressView(t, m, "M", "n", "o", "enter")
			if got, _ := c.Events(ctx, id); len(got) != len(held) {
				t.Fatalf("enter sent something before asking: %d → %d events", len(held), len(got))
			}
			if v := m.View(); !strings.Contains(v, tc.says) || !strings.Contains(v, " reject first, then send") {
				t.Fatalf("not asked what the message does:\n%s", v)
			}
			pressView(t, m, "x")
			answered(t, done, "message")
			got, _ := c.Events(ctx, id)
			var rejected, message bool
			for _, ev := range got[len(held):] {
				switch b := ev.Body.(type) {
				case *model.UserReject:
					rejected = !message
				case *model.Message:
					message = message || ev.Source == "user"
				case *model.Observation:
					if !rejected {
						t.Fatalf("an action ran before its rejection: %s", ev.Raw)
					}
					_ = b
				}
			}
			if !rejected || !message {
				t.Fatalf("after x: rejected first %v, message %v", rejected, message)
			}
		})
	}
}
