package serve

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"ohwatch/demo"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// heldAtConfirmation serves evs (with the branches, by action id) holding at
// waiting_for_confirmation, and returns the URL and a socket that has read
// up to the snapshot that follows the per-field waiting_for_confirmation.
func heldAtConfirmation(t *testing.T, base *model.BaseState, evs []model.Event, branches map[string][]model.Event) (string, *wsClient) {
	t.Helper()
	return heldWith(t, Options{}, base, evs, branches)
}

// heldWith is heldAtConfirmation on a server with opts besides.
func heldWith(t *testing.T, opts Options, base *model.BaseState, evs []model.Event, branches map[string][]model.Event) (string, *wsClient) {
	t.Helper()
	opts.ConfirmHold, opts.StartPaused = time.Minute, true
	s := New(opts)
	s.Add(convID, base, evs)
	for id, b := range branches {
		if !s.OnReject(convID, id, b) {
			t.Fatal("OnReject: no such conversation")
		}
	}
	url, err := s.Start(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	ws := dial(t, url, convID, "", nil)
	ws.next()
	s.Run(convID)
	ws.until(func(ev model.Event) bool { return statusOf(ev) == model.StatusWaitingForConfirmation })
	// A run that stops for approval ends with a snapshot, as any run does.
	if ok, st := isFullState(ws.next()); !ok || st != model.StatusWaitingForConfirmation {
		t.Fatal("no waiting_for_confirmation snapshot after the run stopped")
	}
	return url, ws
}

// restEvents is every persisted event of convID, over REST.
func restEvents(t *testing.T, url string) []model.Event { return restEventsOf(t, url, convID) }

func TestRejectSkipsTheRecordedResult(t *testing.T) {
	// The CLI recording never says it waits: the HIGH-risk action does.
	evs := testevents.Twin(t, "confirmation_mode")
	var risky model.Event
	for _, ev := range evs {
		if a, ok := ev.Body.(*model.Action); ok && a.SecurityRisk == "HIGH" {
			risky = ev
		}
	}
	url, ws := heldAtConfirmation(t, nil, evs, nil)
	if code := post(t, eventsURL(url, convID, "/respond_to_confirmation"), "", `{"accept":false,"reason":"not that"}`, nil); code != http.StatusOK {
		t.Fatalf("respond: HTTP %d", code)
	}
	rej := ws.next()
	if b, ok := rej.Body.(*model.UserReject); !ok || b.ActionID != risky.ID || b.Reason != "not that" {
		t.Fatalf("rejection: %s", rej.Raw)
	}
	if st := statusOf(ws.next()); st != model.StatusIdle {
		t.Fatalf("after the rejection: %q", st)
	}
	// The run goes on to its end without the rejected action's result.
	got := ws.until(func(ev model.Event) bool { ok, st := isFullState(ev); return ok && st == model.StatusFinished })
	for _, ev := range got {
		if o, ok := ev.Body.(*model.Observation); ok && o.ActionID == risky.ID {
			t.Fatalf("the rejected action's recorded result went out: %s", ev.Raw)
		}
	}
	waitFor(t, "the rest of the replay", func() bool {
		return strings.Contains(string(mustJSON(ids(restEvents(t, url)))), evs[len(evs)-1].ID)
	})
	rejects, results := 0, 0
	for _, ev := range restEvents(t, url) {
		switch b := ev.Body.(type) {
		case *model.UserReject:
			rejects++
		case *model.Observation:
			if b.ActionID == risky.ID {
				results++
			}
		}
	}
	if rejects != 1 || results != 0 {
		t.Errorf("%d rejections and %d results of the rejected action persisted", rejects, results)
	}
}

func TestAcceptRunsTheRecordedResult(t *testing.T) {
	evs := testevents.Twin(t, "confirmation_mode")
	url, ws := heldAtConfirmation(t, nil, evs, nil)
	post(t, eventsURL(url, convID, "/respond_to_confirmation"), "", `{"accept":true}`, nil)
	// Upstream's run loop sets RUNNING before agent.step runs the approved
	// action: running comes first, then the action's result.
	if next := ws.next(); statusOf(next) != model.StatusRunning {
		t.Fatalf("after accepting, not running: %s", next.Raw)
	}
	next := ws.next()
	if _, ok := next.Body.(*model.Observation); !ok {
		t.Fatalf("after running, not the recorded result: %s", next.Raw)
	}
}

// TestDemoRejectedPushTakesItsBranch rejects the demo's force push: the
// agent must acknowledge and finish without pushing.
func TestDemoRejectedPushTakesItsBranch(t *testing.T) {
	rawBase, rawEvents := demo.Conversation()
	actionID, rawBranch := demo.Rejected()
	evs, branch := decodeAll(t, rawEvents), decodeAll(t, rawBranch)
	url, ws := heldAtConfirmation(t, decodeBase(t, rawBase), evs, map[string][]model.Event{actionID: branch})
	post(t, eventsURL(url, convID, "/respond_to_confirmation"), "", `{"accept":false}`, nil)
	got := ws.until(func(ev model.Event) bool { ok, st := isFullState(ev); return ok && st == model.StatusFinished })
	var reply string
	for _, ev := range got {
		// Upstream stamps every event with the HEAD of its moment: after
		// the rejection, nothing hangs from the rejected action but the
		// rejection itself, or a client sees a branch nobody made.
		if _, reject := ev.Body.(*model.UserReject); ev.ParentID == actionID && !reject {
			t.Errorf("after the rejection, %s names the rejected action as its parent: %s", ev.Kind, ev.Raw)
		}
		if o, ok := ev.Body.(*model.Observation); ok && o.ActionID == actionID {
			t.Fatalf("the push ran: %s", ev.Raw)
		}
		if strings.Contains(string(ev.Raw), "pushed to") {
			t.Fatalf("the agent reports a push: %s", ev.Raw)
		}
		if m, ok := ev.Body.(*model.Message); ok && m.Role == "assistant" {
			reply = ev.Summary
		}
	}
	if !strings.Contains(reply, "did not push") {
		t.Errorf("the agent's last reply: %q", reply)
	}
	if last := got[len(got)-3]; last.ID != branch[len(branch)-2].ID {
		t.Errorf("the replay did not end with the branch: %s", last.Raw)
	}
}
