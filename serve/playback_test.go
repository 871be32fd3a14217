package serve

import (
	"context"
	"net/http"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/model"
)

func TestGapFollowsRecordedPace(t *testing.T) {
	r := newRecording(t)
	r.userMessage("a") // t0
	r.userMessage("b") // t0+1s
	r.userMessage("c") // an hour later
	r.evs[2].Time = r.evs[1].Time.Add(time.Hour)
	cases := []struct {
		speed float64
		i     int
		want  time.Duration
	}{
		{1, 0, 0},
		{1, 1, time.Second},
		{10, 1, 100 * time.Millisecond},
		{0, 1, 0},
		{-1, 1, 0},
		{1, 2, MaxGap},
		{2, 2, MaxGap / 2},
	}
	for _, c := range cases {
		conv := newConversation("x", nil, r.evs, &Options{Speed: c.speed}, newFaultState(Faults{}), nil)
		if got := conv.gap(c.i); got != c.want {
			t.Errorf("speed %v, gap before event %d = %v, want %v", c.speed, c.i, got, c.want)
		}
	}
}

func TestLiveReplayAtPace(t *testing.T) {
	evs := basicRun(t)
	// One recorded second is 5ms: the replay takes a few tens of ms and
	// the events arrive live, one by one.
	_, base := start(t, Options{Speed: 200, StartPaused: true}, map[string][]model.Event{convID: evs})
	ws := dial(t, base, convID, "", nil)
	if statusOf(ws.next()) != "idle" {
		t.Fatal("the first frame of an unstarted conversation is not idle")
	}
	post(t, base+"/api/conversations/"+convID+"/run", "", "", nil)
	got := ws.until(func(ev model.Event) bool { ok, _ := isFullState(ev); return ok })
	if len(got) != len(evs)+1 {
		t.Fatalf("got %d frames, want %d events and the snapshot", len(got), len(evs))
	}
	for i := range evs {
		if !rawEqual(got[i].Raw, evs[i].Raw) {
			t.Errorf("live frame %d differs from the recording", i)
		}
	}
}

func TestPauseAndRun(t *testing.T) {
	evs := basicRun(t)
	// One recorded second is 20ms: the replay is still going when the
	// second /run arrives.
	s, base := start(t, Options{Speed: 50}, map[string][]model.Event{convID: evs})
	ws := dial(t, base, convID, "", nil)
	ws.next()
	waitFor(t, "the first events", func() bool { return eventCount(t, base, convID) >= 2 })
	if code := post(t, base+"/api/conversations/"+convID+"/pause", "", "", nil); code != http.StatusOK {
		t.Fatalf("pause: HTTP %d", code)
	}
	// The player stops at its next wait and stays there: until /run,
	// nothing more can be emitted.
	c := s.conversation(convID)
	waitFor(t, "the player held by the pause", func() bool { return c.clock.waitsParked() > 0 })
	n := eventCount(t, base, convID)
	if c.clock.waitsParked() == 0 {
		t.Fatal("the player went on while paused")
	}
	if m := eventCount(t, base, convID); m != n {
		t.Fatalf("the replay went on while paused: %d → %d events", n, m)
	}
	if code := post(t, base+"/api/conversations/"+convID+"/pause", "", "", nil); code != http.StatusOK {
		t.Errorf("second pause: HTTP %d", code)
	}
	// Paused mid-run: a PauseEvent, execution_status=paused and a snapshot
	// were published.
	frames := ws.until(func(ev model.Event) bool { ok, _ := isFullState(ev); return ok })
	var sawPause, sawPaused bool
	for _, ev := range frames {
		sawPause = sawPause || ev.Kind == "PauseEvent"
		sawPaused = sawPaused || statusOf(ev) == "paused"
	}
	if !sawPause || !sawPaused {
		t.Errorf("pause published PauseEvent %v, paused %v", sawPause, sawPaused)
	}
	if _, st := isFullState(frames[len(frames)-1]); st != "paused" {
		t.Errorf("snapshot after pause reports %q", st)
	}
	if code := post(t, base+"/api/conversations/"+convID+"/run", "", "", nil); code != http.StatusOK {
		t.Fatalf("run: HTTP %d", code)
	}
	if code := post(t, base+"/api/conversations/"+convID+"/run", "", "", nil); code != http.StatusConflict {
		t.Errorf("run while running: HTTP %d, want 409", code)
	}
	waitFor(t, "the rest of the replay", func() bool {
		var info map[string]any
		get(t, base+"/api/conversations/"+convID, "", &info)
		return info["execution_status"] == "finished"
	})
}

func TestInterrupt(t *testing.T) {
	evs := basicRun(t)
	// One recorded second is a real one: the interrupt lands long before
	// the second event is due.
	s, base := start(t, Options{Speed: 1, StartPaused: true}, map[string][]model.Event{convID: evs})
	ws := dial(t, base, convID, "", nil)
	ws.next()
	s.Run(convID)
	ws.nextN(1)
	post(t, base+"/api/conversations/"+convID+"/interrupt", "", "", nil)
	frames := ws.nextN(3)
	if frames[0].Kind != "InterruptEvent" || frames[0].Source != "user" || statusOf(frames[1]) != "paused" {
		t.Fatalf("interrupt published %s, %s", frames[0].Raw, frames[1].Raw)
	}
	if ok, st := isFullState(frames[2]); !ok || st != "paused" {
		t.Fatalf("no paused snapshot: %s", frames[2].Raw)
	}
	s.Run(convID)
	if ev := ws.next(); statusOf(ev) != "idle" {
		// The interrupted status (idle: only a user message had been
		// emitted) is restored before the replay carries on.
		t.Fatalf("after run: %s", ev.Raw)
	}
}

func TestProvisionalThenConfirmedFinished(t *testing.T) {
	evs := basicRun(t)
	_, base := start(t, Options{Speed: 0, FinishConfirmDelay: 30 * time.Millisecond, StartPaused: true},
		map[string][]model.Event{convID: evs})
	ws := dial(t, base, convID, "", nil)
	ws.next()
	post(t, base+"/api/conversations/"+convID+"/run", "", "", nil)
	got := ws.nextN(len(evs) + 1)
	last := got[len(evs)-1]
	if statusOf(last) != "finished" {
		t.Fatalf("the recording's per-field finished is not the last event: %s", last.Raw)
	}
	snap := got[len(evs)]
	if ok, st := isFullState(snap); !ok || st != "finished" {
		t.Fatalf("no confirming snapshot: %s", snap.Raw)
	}
	if snap.ID == "" || snap.ID == last.ID || snap.Time.Before(last.Time) {
		t.Errorf("snapshot id %q time %v (last event %v)", snap.ID, snap.Time, last.Time)
	}
	// Only one snapshot per run end, and snapshots are never persisted.
	if data, err := ws.readRaw(100 * time.Millisecond); err == nil {
		t.Errorf("unexpected frame %s", data)
	}
	if n := eventCount(t, base, convID); n != len(evs) {
		t.Errorf("REST has %d events; the snapshot must not be one", n)
	}
}

func TestInferredEndOfRunIsConfirmed(t *testing.T) {
	// The CLI recording has no state updates: the end of the run is the
	// agent's reply.
	evs := testevents.Twin(t, "simple_echo_hello_world")
	_, base := start(t, Options{StartPaused: true}, map[string][]model.Event{convID: evs})
	ws := dial(t, base, convID, "", nil)
	ws.next()
	post(t, base+"/api/conversations/"+convID+"/run", "", "", nil)
	got := ws.until(func(ev model.Event) bool { ok, _ := isFullState(ev); return ok })
	n := len(got)
	if _, st := isFullState(got[n-1]); st != "finished" || n < 3 {
		t.Fatalf("snapshot: %s", got[n-1].Raw)
	}
	// The agent's reply, the per-field finished a server sends for it,
	// then the snapshot.
	if got[n-3].ID != evs[len(evs)-1].ID || statusOf(got[n-2]) != "finished" {
		t.Fatalf("before the snapshot: %s, %s", got[n-3].Raw, got[n-2].Raw)
	}
}

func TestSnapshotCarriesLatestStats(t *testing.T) {
	r := newRecording(t)
	r.userMessage("go")
	r.status("running")
	r.add("ConversationStateUpdateEvent", "environment", `"key":"stats","value":{"usage_to_metrics":{"default":{"model_name":"m","accumulated_cost":0.25,"accumulated_token_usage":{"model":"m","prompt_tokens":100,"completion_tokens":5}}}}`)
	r.agentMessage("done")
	r.status("finished")
	_, base := start(t, Options{StartPaused: true}, map[string][]model.Event{convID: r.evs})
	ws := dial(t, base, convID, "", nil)
	ws.next()
	post(t, base+"/api/conversations/"+convID+"/run", "", "", nil)
	got := ws.nextN(len(r.evs) + 1)
	u := got[len(r.evs)].Body.(*model.StateUpdate)
	if u.Stats == nil || u.Stats.UsageToMetrics["default"] == nil || u.Stats.UsageToMetrics["default"].AccumulatedCost != 0.25 {
		t.Fatalf("snapshot stats: %s", got[len(r.evs)].Raw)
	}
}

// confirmRun is a run that stops for confirmation of a risky action.
func confirmRun(t testing.TB) (evs []model.Event, actionID string) {
	r := newRecording(t)
	r.userMessage("delete it")
	r.status("running")
	actionID = r.action("rm -rf build", "HIGH")
	r.status("waiting_for_confirmation")
	r.status("running")
	r.observation(actionID, "toolu_2")
	r.agentMessage("deleted")
	r.status("finished")
	return r.evs, actionID
}

func TestConfirmationHoldAccept(t *testing.T) {
	evs, _ := confirmRun(t)
	_, base := start(t, Options{ConfirmHold: time.Minute}, map[string][]model.Event{convID: evs})
	ws := dial(t, base, convID, "resend_mode=all", nil)
	ws.until(func(ev model.Event) bool { return statusOf(ev) == "waiting_for_confirmation" })
	// Held: nothing but the snapshot that confirms the wait comes.
	ws.quietFor(50*time.Millisecond, "the replay went on while holding")
	if code := post(t, eventsURL(base, convID, "/respond_to_confirmation"), "", `{"accept":true}`, nil); code != http.StatusOK {
		t.Fatalf("respond: HTTP %d", code)
	}
	if ev := ws.nextEvent(); statusOf(ev) != "running" {
		t.Fatalf("after accept: %s", ev.Raw)
	}
}

func TestConfirmationHoldReject(t *testing.T) {
	evs, actionID := confirmRun(t)
	_, base := start(t, Options{ConfirmHold: time.Minute}, map[string][]model.Event{convID: evs})
	ws := dial(t, base, convID, "resend_mode=all", nil)
	ws.until(func(ev model.Event) bool { return statusOf(ev) == "waiting_for_confirmation" })
	post(t, eventsURL(base, convID, "/respond_to_confirmation"), "", `{"accept":false,"reason":"too risky"}`, nil)
	rej := ws.nextEvent()
	b, ok := rej.Body.(*model.UserReject)
	if !ok || b.ActionID != actionID || b.Reason != "too risky" || b.RejectionSource != "user" {
		t.Fatalf("rejection: %s", rej.Raw)
	}
	if ev := ws.nextEvent(); statusOf(ev) != "idle" {
		t.Fatalf("after the rejection: %s", ev.Raw)
	}
	// The replay carries on.
	if ev := ws.nextEvent(); ev.ID != evs[4].ID {
		t.Fatalf("replay did not resume: %s", ev.Raw)
	}
	var n int
	get(t, eventsURL(base, convID, "/count?kind=openhands.sdk.event.llm_convertible.observation.UserRejectObservation"), "", &n)
	if n != 1 {
		t.Errorf("%d UserRejectObservations persisted", n)
	}
}

// TestConfirmationHoldPasses: a confirmation nobody answers holds the
// replay for ConfirmHold, then is accepted, OnHoldPassed is told once, and
// the replay plays out.
func TestConfirmationHoldPasses(t *testing.T) {
	evs, _ := confirmRun(t)
	const hold = 300 * time.Millisecond
	passed := make(chan time.Duration, 4)
	began := time.Now()
	_, base := start(t, Options{ConfirmHold: hold, OnHoldPassed: func(_ string, d time.Duration) { passed <- d }},
		map[string][]model.Event{convID: evs})
	ws := dial(t, base, convID, "resend_mode=all", nil)
	ws.until(func(ev model.Event) bool { return statusOf(ev) == "waiting_for_confirmation" })
	if ev := ws.nextEvent(); statusOf(ev) != "running" {
		t.Fatalf("after the hold: %s", ev.Raw)
	}
	// A lower bound, true however loaded the machine: what follows the
	// wait cannot come sooner than the hold after the server started.
	if held := time.Since(began); held < hold {
		t.Fatalf("the replay went on %v after the server started, within the hold of %v", held, hold)
	}
	select {
	case d := <-passed:
		if d != hold {
			t.Errorf("OnHoldPassed told of a hold of %v, want %v", d, hold)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("OnHoldPassed was never told")
	}
	waitFor(t, "the replay past the hold", func() bool { return eventCount(t, base, convID) == len(evs) })
	if len(passed) != 0 {
		t.Errorf("OnHoldPassed told %d more times", len(passed))
	}
}

func TestRejectInferredConfirmation(t *testing.T) {
	// The CLI confirmation recording has no state updates; the reducer
	// infers waiting_for_confirmation from the HIGH-risk action.
	evs := testevents.Twin(t, "confirmation_mode")
	_, base := start(t, Options{ConfirmHold: time.Minute}, map[string][]model.Event{convID: evs})
	waitFor(t, "the hold", func() bool {
		var info map[string]any
		get(t, base+"/api/conversations/"+convID, "", &info)
		return info["execution_status"] == "waiting_for_confirmation"
	})
	n := eventCount(t, base, convID)
	post(t, eventsURL(base, convID, "/respond_to_confirmation"), "", `{"accept":false}`, nil)
	waitFor(t, "the rest", func() bool { return eventCount(t, base, convID) > n+1 })
	if code := post(t, eventsURL(base, convID, "/respond_to_confirmation"), "", `{"accept":"yes"}`, nil); code != http.StatusUnprocessableEntity {
		t.Errorf("bad body: HTTP %d", code)
	}
}

func TestRunAfterTheReplayIsANoOp(t *testing.T) {
	s, base := start(t, Options{}, map[string][]model.Event{convID: basicRun(t)})
	waitPlayed(t, s)
	if code := post(t, base+"/api/conversations/"+convID+"/run", "", "", nil); code != http.StatusOK {
		t.Fatalf("run after the replay: HTTP %d", code)
	}
}

func TestPauseHoldsBackAnEventDueNow(t *testing.T) {
	// The player's wait ended just as /pause arrived: the event waits for
	// /run rather than slipping out while paused.
	c := newConversation("x", nil, basicRun(t), &Options{}, newFaultState(Faults{}), nil)
	c.clock.setPaused(true)
	if emitted, _, _ := c.emitRecorded(0); emitted || len(c.events()) != 0 {
		t.Fatal("an event went out while paused")
	}
	c.clock.setPaused(false)
	if emitted, _, _ := c.emitRecorded(0); !emitted || len(c.events()) != 1 {
		t.Fatal("the event did not go out after run")
	}
}

func TestOnlySettledRunsAreConfirmed(t *testing.T) {
	// Two turns, each ending finished, the second one a recorded second
	// after the first.
	r := newRecording(t)
	r.userMessage("first")
	r.status("running")
	r.agentMessage("one")
	r.status("finished")
	r.userMessage("second")
	r.status("running")
	r.agentMessage("two")
	r.status("finished")
	cases := []struct {
		name  string
		delay time.Duration
		want  []int // indices of the events each snapshot follows
	}{
		{"delay shorter than the gap confirms both", 5 * time.Millisecond, []int{3, 7}},
		{"delay longer than the gap confirms the last", 50 * time.Millisecond, []int{7}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// One recorded second is 20ms.
			s, base := start(t, Options{Speed: 50, FinishConfirmDelay: c.delay, StartPaused: true}, map[string][]model.Event{convID: r.evs})
			ws := dial(t, base, convID, "", nil)
			ws.next()
			s.Run(convID)
			got := ws.nextN(len(r.evs) + len(c.want))
			var after []int
			seen := -1
			for _, ev := range got {
				if ok, st := isFullState(ev); ok {
					if st != "finished" {
						t.Errorf("snapshot status %q", st)
					}
					after = append(after, seen)
					continue
				}
				seen++
			}
			if len(after) != len(c.want) || after[len(after)-1] != c.want[len(c.want)-1] || after[0] != c.want[0] {
				t.Fatalf("snapshots after events %v, want %v", after, c.want)
			}
		})
	}
}

// TestADecisionBeforeTheHoldIsKept answers the confirmation in the moment
// between the waiting_for_confirmation going out and the player starting
// to hold (the snapshot's delay falls there): the hold takes the decision
// at once instead of waiting out ConfirmHold, and the action is rejected
// once.
func TestADecisionBeforeTheHoldIsKept(t *testing.T) {
	evs, actionID := confirmRun(t)
	c := newConversation(convID, nil, evs, &Options{ConfirmHold: time.Hour}, newFaultState(Faults{}), nil)
	waits := false
	for i := 0; !waits; i++ {
		_, _, waits = c.emitRecorded(i)
	}
	c.respond(false, "no")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if !c.hold(ctx, time.Hour) {
		t.Fatal("the hold waited for a decision already made")
	}
	var rejections int
	for _, ev := range c.emitted {
		if r, ok := ev.Body.(*model.UserReject); ok && r.ActionID == actionID {
			rejections++
		}
	}
	if rejections != 1 {
		t.Errorf("%d rejections of the action, want 1", rejections)
	}
}
