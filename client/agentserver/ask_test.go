package agentserver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/serve"
)

// TestAnswerQuestionAgainstServe answers a generated conversation's
// ask_user question (upstream's pair, gen.Options.AskUser) through serve:
// an answer naming another request is refused by the server and answers
// nothing; the one naming the open request is taken.
func TestAnswerQuestionAgainstServe(t *testing.T) {
	const id = "a5a5a5a5a5a54a5a8a5a5a5a5a5a5a5b"
	evs := testevents.GeneratedWith(t, gen.Options{Events: 40, Seed: 3, AskUser: true})
	_, c := startServe(t, serve.Options{ConfirmHold: serve.UntilAnswered}, id, nil, evs)
	st := watchUntil(t, c, id, "the question", func(st reducer.State) bool {
		return st.Question != nil && st.Status == model.StatusWaitingForConfirmation
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var ce *ControlError
	err := c.AnswerQuestion(ctx, id, "another-request", model.AskCancel, nil)
	if !errors.As(err, &ce) || ce.Status != http.StatusConflict || !strings.Contains(err.Error(), "does not match the pending ask_user request") {
		t.Fatalf("another request: %v", err)
	}
	answers := map[string][]model.AnswerChoice{"cutoff": {{OptionID: "include", Label: "Include it (cutoff is inclusive)"}}}
	if err := c.AnswerQuestion(ctx, id, st.Question.RequestID(), model.AskAccept, answers); err != nil {
		t.Fatalf("the open request: %v", err)
	}
	watchUntil(t, c, id, "the answer", func(st reducer.State) bool { return st.Question == nil && st.Status == model.StatusFinished })
}

// TestAnswerQuestionOnAnOlderServer: a server without the answer route
// (agent-server 1.43.1 answers 404 for it) gives ErrControlUnsupported, not
// "no such conversation"; a conversation that is not waiting is not sent
// an answer at all.
func TestAnswerQuestionOnAnOlderServer(t *testing.T) {
	const id = "a5a5a5a5a5a54a5a8a5a5a5a5a5a5a5c"
	evs := testevents.GeneratedWith(t, gen.Options{Events: 40, Seed: 3, AskUser: true})
	_, direct := startServe(t, serve.Options{ConfirmHold: serve.UntilAnswered, StartPaused: true}, id, nil, evs)
	u, err := url.Parse(direct.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	var posts atomic.Int32
	old := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/respond_to_ask_user") {
			posts.Add(1)
			http.Error(w, `{"detail":"Not Found"}`, http.StatusNotFound)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(old.Close)
	c, err := New(old.URL, e2eKey)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var nw *NotWaitingError
	if err := c.AnswerQuestion(ctx, id, "req", model.AskCancel, nil); !errors.As(err, &nw) || posts.Load() != 0 {
		t.Fatalf("not waiting: %v, %d posts", err, posts.Load())
	}
	if err := c.Run(ctx, id); err != nil {
		t.Fatal(err)
	}
	st := watchUntil(t, c, id, "the question", func(st reducer.State) bool {
		return st.Question != nil && st.Status == model.StatusWaitingForConfirmation
	})
	err = c.AnswerQuestion(ctx, id, st.Question.RequestID(), model.AskCancel, nil)
	if !errors.Is(err, ErrControlUnsupported) || errors.Is(err, ErrNotFound) || posts.Load() != 1 {
		t.Fatalf("an older server: %v", err)
	}
}
