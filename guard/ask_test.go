package guard

import (
	"testing"
	"time"

	"ohwatch/gen"
	"ohwatch/model"
	"ohwatch/reducer"
)

// TestIdleDoesNotTripWhileTheAgentAsks: an open ask_user question is the
// person's turn, as a pending confirmation is: however long the answer
// takes, neither the answer's gap nor a tick trips an idle rule.
func TestIdleDoesNotTripWhileTheAgentAsks(t *testing.T) {
	s := newScript(t)
	s.add(s.b.User("go"))
	s.add(s.b.Status(model.StatusRunning))
	s.call("ls")
	r := s.b.CallLLM(time.Second, 40, "", "")
	s.add(s.b.Stats())
	qs := []gen.AskQuestion{{ID: "q", Text: "Which one?", Options: [][2]string{{"a", "A"}, {"b", "B"}}}}
	a := s.b.AskUser(r, qs, "ask")
	s.add(a.Raw)
	s.add(s.b.AskRequest(a, "req-1", qs))
	s.add(s.b.Status(model.StatusWaitingForConfirmation))

	rs, err := ParseAll([]string{"idle>10m:pause"})
	if err != nil {
		t.Fatal(err)
	}
	set := New(rs)
	st := reducer.Initial(nil, 0)
	for i, ev := range s.evs {
		st = reducer.ApplyAt(st, i, ev)
		if got := set.Observe(i, ev, &st); len(got) != 0 {
			t.Fatalf("tripped at %s: %+v", ev.Kind, got)
		}
	}
	if st.Question == nil {
		t.Fatal("no open question")
	}
	if got := set.Tick(time.Hour); len(got) != 0 {
		t.Fatalf("a tick an hour into the question tripped: %+v", got)
	}
	s.b.Advance(30 * time.Minute)
	rest := len(s.evs)
	s.add(s.b.AskResponse("req-1", model.AskAccept, [][3]string{{"q", "a", "A"}}))
	s.add(s.b.Status(model.StatusRunning))
	s.add(s.b.AskResult(a, model.AskAccept, [][3]string{{"q", "a", "A"}}, "User answered"))
	for i, ev := range s.evs[rest:] {
		st = reducer.ApplyAt(st, rest+i, ev)
		if got := set.Observe(rest+i, ev, &st); len(got) != 0 {
			t.Fatalf("the answer after 30 minutes tripped at %s: %+v", ev.Kind, got)
		}
	}
	// Running again, the rule is armed.
	if got := set.Tick(time.Hour); len(got) != 1 {
		t.Fatalf("a tick an hour into running: %+v", got)
	}
}
