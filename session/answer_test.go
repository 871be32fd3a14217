package session

import (
	"context"
	"errors"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/client/agentserver"
	"ohwatch/gen"
	"ohwatch/internal/termtest"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/serve"
	convui "ohwatch/tui/conversation"
)

// serveQuestion serves a generated conversation whose agent asks the user
// a question (gen.Options.AskUser, upstream's ask_user pair written from
// its field names), holding at it until answered.
func serveQuestion(t *testing.T) (string, *agentserver.Client) {
	t.Helper()
	evs := testevents.GeneratedWith(t, gen.Options{Events: 40, Seed: 3, AskUser: true})
	srv := serve.New(serve.Options{Key: "ask-key", ConfirmHold: serve.UntilAnswered, FinishConfirmDelay: time.Millisecond})
	const id = "a5a5a5a5a5a54a5a8a5a5a5a5a5a5a5a"
	srv.Add(id, nil, evs)
	url, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	c, err := agentserver.New(url, "ask-key")
	if err != nil {
		t.Fatal(err)
	}
	return id, c
}

func key(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// TestTUIAnswersTheQuestionAgainstServe: the live view shows the open
// question with its options, x does not reject it, a opens the answer, 2
// and enter send the second option bound to the request's id, and the run
// goes on with that answer.
func TestTUIAnswersTheQuestionAgainstServe(t *testing.T) {
	id, c := serveQuestion(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	log := reducer.NewLog(nil, 0)
	m := convui.New(convui.Options{Title: "ask", Source: "ws", Log: log, Live: true, NoColor: true,
		Feed: c.Watch(ctx, id, agentserver.WatchOptions{}), Controls: confirmer{c: c, id: id}})
	tm := termtest.Start(t, m, 160, 48)
	tm.WaitFor(t, 30*time.Second, "the agent asks you · a answer")
	req := log.Latest().Question.Request
	tm.Send(key('x'))
	tm.WaitFor(t, 10*time.Second, "Should a posting stamped exactly at the cutoff count in the balance?", "2 [ ] Exclude it (cutoff is exclusive)")
	tm.Send(key('2'))
	// The renderer repaints only what changed: the box of option 2.
	tm.WaitFor(t, 10*time.Second, "2 [x")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	var answer *model.AskUserResponse
	tm.WaitUntil(t, 30*time.Second, "the answer in the log and the run finished", func() bool {
		st := log.Latest()
		for i := range log.Len() {
			if b, ok := log.Event(i).Body.(*model.AskUserResponse); ok {
				answer = b
			}
		}
		return answer != nil && st.Status == model.StatusFinished
	})
	tm.Send(key('q'))
	tm.Final(t, 5*time.Second)
	if answer.RequestID != req.RequestID || answer.Action != model.AskAccept || len(answer.Answers) != 1 ||
		answer.Answers[0].Selected[0].OptionID != "exclude" {
		t.Fatalf("the answer sent: %+v", answer)
	}
	for i := range log.Len() {
		if _, ok := log.Event(i).Body.(*model.UserReject); ok {
			t.Fatal("x rejected the ask_user action")
		}
	}
}

// TestConfirmerNeverAnswersAClosedRequest: an answer naming a request that
// is not the open one is refused by the server (409) and nothing is
// answered; the open one can still be answered after.
func TestConfirmerNeverAnswersAClosedRequest(t *testing.T) {
	id, c := serveQuestion(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	log := reducer.NewLog(nil, 0)
	var q *reducer.Question
	for b := range c.Watch(ctx, id, agentserver.WatchOptions{}) {
		log.Append(b.Events...)
		if q = log.Latest().Question; q != nil && log.Latest().Status == model.StatusWaitingForConfirmation {
			break
		}
	}
	if q == nil {
		t.Fatal("the watch ended before the question")
	}
	cf := confirmer{c: c, id: id}
	var ce *agentserver.ControlError
	if err := cf.Answer(ctx, "not-the-open-request", model.AskCancel, nil); !errors.As(err, &ce) || ce.Status != 409 {
		t.Fatalf("a stale request id: %v", err)
	}
	if err := cf.Answer(ctx, q.RequestID(), model.AskDecline, nil); err != nil {
		t.Fatalf("the open request: %v", err)
	}
}
