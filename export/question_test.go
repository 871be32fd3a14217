package export

import (
	"encoding/json"
	"strings"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
)

// TestStateShowsTheOpenQuestion: the state of a generated conversation
// (gen.Options.AskUser: upstream's ask_user pair) stopped at its question
// names the question, its options and its request in text and JSON; once
// answered, there is none.
func TestStateShowsTheOpenQuestion(t *testing.T) {
	evs := testevents.GeneratedWith(t, gen.Options{Events: 40, Seed: 3, AskUser: true})
	log := reducer.NewLog(nil, 0)
	log.Append(evs...)
	at := -1
	for i, ev := range evs {
		if _, ok := ev.Body.(*model.AskUserRequest); ok {
			at = i + 2 // the request and the wait's status update
		}
	}
	doc := State(log, at, nil, true)
	q := doc.Question
	if q == nil || q.RequestID == "" || len(q.Questions) != 1 || len(q.Questions[0].Options) != 2 || q.Questions[0].Options[1].ID != "exclude" {
		t.Fatalf("question %+v", q)
	}
	var b strings.Builder
	if err := WriteStateText(&b, "id", "title", doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"question       the agent asks you (request " + q.RequestID + ")",
		"  ? Should a posting stamped exactly at the cutoff count in the balance?", "      - Exclude it (cutoff is exclusive)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	js, err := json.Marshal(doc)
	if err != nil || !strings.Contains(string(js), `"question":{"request_id":"`+q.RequestID+`"`) {
		t.Fatalf("JSON %s %v", js, err)
	}
	if done := State(log, len(evs), nil, true); done.Question != nil {
		t.Fatalf("answered, still %+v", done.Question)
	} else if js, _ := json.Marshal(done); strings.Contains(string(js), `"question"`) {
		t.Fatalf("a key for no question: %s", js)
	}
}
