package serve

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"ohwatch/model"
)

// policyURL is the confirmation_policy route of the test conversation.
func policyURL(base string) string {
	return base + "/api/conversations/" + convID + "/confirmation_policy"
}

// statusIs waits until REST reports status.
func statusIs(t *testing.T, base, status string) {
	t.Helper()
	waitFor(t, "execution_status "+status, func() bool {
		var info map[string]any
		get(t, base+"/api/conversations/"+convID, "", &info)
		return info["execution_status"] == status
	})
}

func TestConfirmationPolicyAlwaysMakesAnActionWait(t *testing.T) {
	evs := basicRun(t) // its LOW-risk action ran without a wait
	_, base := start(t, Options{StartPaused: true, ConfirmHold: UntilAnswered}, map[string][]model.Event{convID: evs})
	ws := dial(t, base, convID, "", nil)
	ws.next()
	if code := post(t, policyURL(base), "", `{"policy":{"kind":"AlwaysConfirm"}}`, nil); code != http.StatusOK {
		t.Fatalf("confirmation_policy: HTTP %d", code)
	}
	ev := ws.nextEvent()
	if u, ok := ev.Body.(*model.StateUpdate); !ok || u.ConfirmationPolicy != "AlwaysConfirm" {
		t.Fatalf("the policy's state update: %s", ev.Raw)
	}
	post(t, base+"/api/conversations/"+convID+"/run", "", "", nil)
	ws.until(func(ev model.Event) bool { return statusOf(ev) == "waiting_for_confirmation" })
	statusIs(t, base, "waiting_for_confirmation")
	var state map[string]any
	get(t, base+"/api/conversations/"+convID, "", &state)
	if p, _ := state["confirmation_policy"].(map[string]any); p["kind"] != "AlwaysConfirm" {
		t.Errorf("the reported state's policy is %v", state["confirmation_policy"])
	}
	ws.quietFor(100*time.Millisecond, "the replay went on while waiting for an answer")
	post(t, eventsURL(base, convID, "/respond_to_confirmation"), "", `{"accept":true}`, nil)
	statusIs(t, base, "finished")
}

func TestConfirmationPolicyNeverPassesARecordedWait(t *testing.T) {
	evs, _ := confirmRun(t)
	_, base := start(t, Options{StartPaused: true, ConfirmHold: UntilAnswered}, map[string][]model.Event{convID: evs})
	post(t, policyURL(base), "", `{"policy":{"kind":"NeverConfirm"}}`, nil)
	ws := dial(t, base, convID, "", nil)
	ws.next()
	post(t, base+"/api/conversations/"+convID+"/run", "", "", nil)
	for _, ev := range ws.until(func(ev model.Event) bool { return statusOf(ev) == "finished" }) {
		if statusOf(ev) == "waiting_for_confirmation" {
			t.Fatalf("NeverConfirm still waited: %s", ev.Raw)
		}
	}
}

func TestConfirmationPolicyRiskyThreshold(t *testing.T) {
	for _, c := range []struct {
		threshold string
		waits     bool
	}{{"LOW", true}, {"MEDIUM", false}} {
		t.Run(c.threshold, func(t *testing.T) {
			_, base := start(t, Options{StartPaused: true, ConfirmHold: UntilAnswered}, map[string][]model.Event{convID: basicRun(t)})
			post(t, policyURL(base), "", `{"policy":{"kind":"ConfirmRisky","threshold":"`+c.threshold+`"}}`, nil)
			ws := dial(t, base, convID, "", nil)
			ws.next()
			post(t, base+"/api/conversations/"+convID+"/run", "", "", nil)
			waited := false
			for _, ev := range ws.until(func(ev model.Event) bool {
				return statusOf(ev) == "finished" || statusOf(ev) == "waiting_for_confirmation"
			}) {
				waited = waited || statusOf(ev) == "waiting_for_confirmation"
			}
			if waited != c.waits {
				t.Errorf("a LOW-risk action under ConfirmRisky %s waited: %v, want %v", c.threshold, waited, c.waits)
			}
		})
	}
}

func TestConfirmationPolicyRefusesABadBody(t *testing.T) {
	_, base := start(t, Options{StartPaused: true}, map[string][]model.Event{convID: basicRun(t)})
	for _, body := range []string{`{}`, `{"policy":{"kind":"Sometimes"}}`, `{"policy":{"kind":"ConfirmRisky","threshold":"UNKNOWN"}}`, `nope`} {
		if code := post(t, policyURL(base), "", body, nil); code != http.StatusUnprocessableEntity {
			t.Errorf("%s: HTTP %d, want 422", body, code)
		}
	}
	if code := post(t, base+"/api/conversations/ffffffffffffffffffffffffffffffff/confirmation_policy", "", `{"policy":{"kind":"NeverConfirm"}}`, nil); code != http.StatusNotFound {
		t.Errorf("unknown conversation: HTTP %d, want 404", code)
	}
}

// madeUp is a continuation that says it is made up, as the command's is.
func madeUp(t testing.TB) func(at time.Time) []model.Event {
	return func(at time.Time) []model.Event {
		r := newRecording(t)
		r.start = at
		r.agentMessage("this reply is generated")
		r.status("finished")
		return r.evs
	}
}

func TestMessageAtTheEndGetsAGeneratedReply(t *testing.T) {
	evs := basicRun(t)
	_, base := start(t, Options{Continue: madeUp(t)}, map[string][]model.Event{convID: evs})
	statusIs(t, base, "finished")
	ws := dial(t, base, convID, "", nil)
	ws.next()
	if code := post(t, eventsURL(base, convID, ""), "", `{"role":"user","content":[{"type":"text","text":"and then?"}],"run":true}`, nil); code != http.StatusOK {
		t.Fatalf("message: HTTP %d", code)
	}
	frames := ws.until(func(ev model.Event) bool { return statusOf(ev) == "finished" })
	var kinds []string
	for _, ev := range frames {
		kinds = append(kinds, ev.Kind+":"+ev.Source+":"+statusOf(ev))
	}
	got := strings.Join(kinds, " ")
	if !strings.Contains(got, "MessageEvent:user:") || !strings.Contains(got, ":running") || !strings.Contains(got, "MessageEvent:agent:") {
		t.Fatalf("after a message at the end: %s", got)
	}
	if n := eventCount(t, base, convID); n != len(evs)+4 { // message, running, reply, finished
		t.Errorf("%d events persisted, want %d", n, len(evs)+4)
	}
}

func TestMessageWithoutRunOnlyJoinsTheLog(t *testing.T) {
	evs := basicRun(t)
	_, base := start(t, Options{Continue: madeUp(t)}, map[string][]model.Event{convID: evs})
	statusIs(t, base, "finished")
	post(t, eventsURL(base, convID, ""), "", `{"role":"user","content":[{"type":"text","text":"noted"}],"run":false}`, nil)
	waitFor(t, "the message", func() bool { return eventCount(t, base, convID) == len(evs)+1 })
	statusIs(t, base, "finished")
}

func TestHoldPassedAcceptsAndSaysSo(t *testing.T) {
	evs, _ := confirmRun(t)
	told := make(chan string, 1)
	_, base := start(t, Options{ConfirmHold: 10 * time.Millisecond, OnHoldPassed: func(id string, _ time.Duration) { told <- id }},
		map[string][]model.Event{convID: evs})
	select {
	case id := <-told:
		if id != convID {
			t.Errorf("told of %s", id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the hold passed without a word")
	}
	statusIs(t, base, "finished")
}

func TestHoldFlag(t *testing.T) {
	var h HoldFlag
	for in, want := range map[string]time.Duration{"until-answered": UntilAnswered, "10s": 10 * time.Second, "0": 0} {
		if err := h.Set(in); err != nil || time.Duration(h) != want {
			t.Errorf("Set(%q) = %v, %v", in, time.Duration(h), err)
		}
	}
	for _, bad := range []string{"-1s", "soon", ""} {
		if h.Set(bad) == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
	h = HoldFlag(UntilAnswered)
	if h.String() != "until-answered" {
		t.Errorf("String() = %q", h.String())
	}
}
