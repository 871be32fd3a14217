package serve

import (
	"encoding/json"
	"net/http"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// askRun is a generated conversation whose agent asks the user a question
// (gen.Options.AskUser): upstream's ask_user pair, field for field as
// openhands-sdk event/ask_user.py writes it (after v1.43.1).
func askRun(t *testing.T) []model.Event {
	return testevents.GeneratedWith(t, gen.Options{Events: 40, Seed: 3, AskUser: true})
}

// openQuestion plays askRun until it waits on its question and returns the
// socket and the request.
func openQuestion(t *testing.T) (string, *wsClient, *model.AskUserRequest) {
	_, base := start(t, Options{StartPaused: true, ConfirmHold: UntilAnswered}, map[string][]model.Event{convID: askRun(t)})
	ws := dial(t, base, convID, "", nil)
	ws.next()
	post(t, base+"/api/conversations/"+convID+"/run", "", "", nil)
	var req *model.AskUserRequest
	ws.until(func(ev model.Event) bool {
		if r, ok := ev.Body.(*model.AskUserRequest); ok {
			req = r
		}
		return req != nil && statusOf(ev) == model.StatusWaitingForConfirmation
	})
	statusIs(t, base, model.StatusWaitingForConfirmation)
	return base, ws, req
}

// TestAnswerRouteAnswersTheOpenQuestion: the answer becomes the
// AskUserResponseEvent and the ask_user action's observation, in place of
// the recording's, and the run goes on.
func TestAnswerRouteAnswersTheOpenQuestion(t *testing.T) {
	base, ws, req := openQuestion(t)
	answer := `{"request_id":"` + req.RequestID + `","action":"accept","answers":{"cutoff":[{"option_id":"exclude","label":"Exclude it (cutoff is exclusive)"}]}}`
	if code := post(t, eventsURL(base, convID, "/respond_to_ask_user"), "", answer, nil); code != http.StatusOK {
		t.Fatalf("answer: HTTP %d", code)
	}
	var resp *model.AskUserResponse
	var obs model.Event
	answers := 0
	ws.until(func(ev model.Event) bool {
		switch b := ev.Body.(type) {
		case *model.AskUserResponse:
			resp = b
			answers++
		case *model.Observation:
			if b.ActionID == req.ActionID {
				obs = ev
			}
		}
		return statusOf(ev) == model.StatusFinished
	})
	if resp == nil || resp.Action != model.AskAccept || resp.Answers[0].Selected[0].OptionID != "exclude" {
		t.Fatalf("response %+v", resp)
	}
	var o struct {
		Observation struct {
			Resolution string `json:"resolution"`
			Message    string `json:"message"`
		} `json:"observation"`
	}
	if err := json.Unmarshal(obs.Raw, &o); err != nil || o.Observation.Resolution != "accept" ||
		o.Observation.Message != "User answered:\n- Should a posting stamped exactly at the cutoff count in the balance? -> Exclude it (cutoff is exclusive)" {
		t.Fatalf("observation %s", obs.Raw)
	}
	// Only the client's answer went out: the recording's was passed over.
	if answers != 1 {
		t.Fatalf("%d answers in the log", answers)
	}
}

// TestAnswerRouteRefusesWhatDoesNotFit: a stale request id or none open is
// 409, an unknown option or two selections for a single-select question
// 400, and nothing is answered.
func TestAnswerRouteRefusesWhatDoesNotFit(t *testing.T) {
	base, _, req := openQuestion(t)
	url := eventsURL(base, convID, "/respond_to_ask_user")
	for _, c := range []struct {
		body string
		code int
	}{
		{`{"request_id":"stale","action":"cancel"}`, http.StatusConflict},
		{`{"request_id":"` + req.RequestID + `","action":"accept","answers":{"cutoff":[{"option_id":"maybe","label":"x"}]}}`, http.StatusBadRequest},
		{`{"request_id":"` + req.RequestID + `","action":"accept","answers":{"nope":[]}}`, http.StatusBadRequest},
		{`{"request_id":"` + req.RequestID + `","action":"accept","answers":{"cutoff":[{"option_id":"include","label":"a"},{"option_id":"exclude","label":"b"}]}}`, http.StatusBadRequest},
		{`{"request_id":"` + req.RequestID + `","action":"approve"}`, http.StatusBadRequest},
		{`{"action":"cancel"}`, http.StatusUnprocessableEntity},
	} {
		if code := post(t, url, "", c.body, nil); code != c.code {
			t.Errorf("%s: HTTP %d, want %d", c.body, code, c.code)
		}
	}
	statusIs(t, base, model.StatusWaitingForConfirmation)
	// Declining closes it; a second answer finds nothing open.
	if code := post(t, url, "", `{"request_id":"`+req.RequestID+`","action":"decline"}`, nil); code != http.StatusOK {
		t.Fatalf("decline: HTTP %d", code)
	}
	waitFor(t, "the question to close", func() bool {
		return post(t, url, "", `{"request_id":"`+req.RequestID+`","action":"cancel"}`, nil) == http.StatusConflict
	})
}
