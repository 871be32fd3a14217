package conversation

import (
	"context"
	"strings"
	"sync"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// fakeAnswerer records the answers sent (and answers confirmations as
// fakeControls does).
type fakeAnswerer struct {
	tuitest.Controls
	mu      sync.Mutex
	sent    []string // request id + " " + action
	answers []map[string][]model.AnswerChoice
}

func (f *fakeAnswerer) Answer(_ context.Context, requestID, action string, answers map[string][]model.AnswerChoice) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, requestID+" "+action)
	f.answers = append(f.answers, answers)
	return nil
}

// askingLog is a generated conversation (gen.Options.AskUser, upstream's
// ask_user pair) cut where it waits on its question; rest is what follows.
func askingLog(t *testing.T) (*reducer.Log, []model.Event) {
	evs := testevents.GeneratedWith(t, gen.Options{Events: 40, Seed: 3, AskUser: true})
	log := reducer.NewLog(nil, 0)
	for i, ev := range evs {
		log.Append(ev)
		if st := log.Latest(); st.Question != nil && st.Status == model.StatusWaitingForConfirmation {
			return log, evs[i+1:]
		}
	}
	t.Fatal("no question in the generated conversation")
	return nil, nil
}

// TestQuestionKeysAnswerNeverApprove: with a question open, a and x open
// the answer, never a confirmation; the pending pane and the banner show the
// question; 2 then enter sends the chosen option bound to the request id;
// ctrl+d declines.
func TestQuestionKeysAnswerNeverApprove(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		ctl := &fakeAnswerer{}
		log, _ := askingLog(t)
		req := log.Latest().Question.Request
		d := drive(t, Options{Log: log, Live: true, Feed: make(chan model.Batch), Controls: ctl}, 160, 48)
		d.Shows("the agent asks you", "Should a posting stamped exactly at the cutoff")
		for _, k := range []string{"x", "a"} {
			d.Press(k).Shows("the agent asks you (1/1)", "ctrl+d decline")
			d.Press("esc").Hides("the agent asks you (").Shows("not answered: the question is still open")
		}
		d.Press("a", "2").Shows("[x] Exclude it (cutoff is exclusive)", "[ ] Include it")
		d.Press("enter").Hides("the agent asks you (")
		if len(ctl.sent) != 1 || ctl.sent[0] != req.RequestID+" accept" || ctl.answers[0]["cutoff"][0].OptionID != "exclude" {
			t.Fatalf("sent %v %v", ctl.sent, ctl.answers)
		}
		if len(answersOf(&ctl.Controls)) != 0 {
			t.Fatal("a confirmation was sent")
		}
		d.Press("a", "ctrl+d")
		if len(ctl.sent) != 2 || ctl.sent[1] != req.RequestID+" decline" || ctl.answers[1] != nil {
			t.Fatalf("decline sent %v %v", ctl.sent, ctl.answers)
		}
	})
}

// TestAnswerIsWithdrawnWhenTheQuestionCloses: an answer prompt open when
// the question is answered elsewhere closes and sends nothing.
func TestAnswerIsWithdrawnWhenTheQuestionCloses(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		ctl := &fakeAnswerer{}
		log, rest := askingLog(t)
		d := drive(t, Options{Log: log, Live: true, Feed: make(chan model.Batch), Controls: ctl}, 160, 48)
		d.Press("a", "1").Shows("the agent asks you (1/1)")
		d.Send(BatchMsg{Batch: model.Batch{Events: rest[:1]}}) // the recorded answer
		d.Hides("the agent asks you (").Shows("question withdrawn: the question was answered or withdrawn")
		d.Press("enter")
		if len(ctl.sent) != 0 {
			t.Fatalf("sent %v", ctl.sent)
		}
	})
}

// TestConfirmPromptShowsTheAnalyzersVerdict: the accept prompt names the
// analyzer's verdict beside the LLM's risk.
func TestConfirmPromptShowsTheAnalyzersVerdict(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		m, ids := waitingModel(t, &tuitest.Controls{})
		at := tui.Ordinal(m.Log.Latest().Pending[0].Index)
		raw := `{"id":"00000000-0000-4000-8000-0000000000aa","timestamp":"2026-01-28T14:33:37.000000","source":"environment","kind":"SecurityAnalysisEvent",` +
			`"analyzer":"LLMSecurityAnalyzer","policy":"ConfirmRisky","risks":{"` + ids[0] + `":"MEDIUM"}}`
		m.Update(BatchMsg{Batch: model.Batch{Events: []model.Event{tuitest.Decode(t, []byte(raw))}}})
		m, _ = press(t, m, "a")
		if s := screen(m); !strings.Contains(s, "Accept pending action "+at+" ("+at+" HIGH, analyzer MEDIUM)? [y/n]") {
			t.Fatalf("no analyzer verdict in the prompt:\n%s", s)
		}
	})
}
