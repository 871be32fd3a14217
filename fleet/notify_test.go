package fleet

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"ohwatch/model"
)

// flap is one update of a listed conversation whose status is status.
func flap(id, status string, first bool) model.FleetUpdate {
	u := model.FleetUpdate{Ref: model.ConversationRef{Source: "s", Kind: model.SourceServer, ID: id},
		Meta: &model.ConversationMeta{Title: "t " + id, Status: status}}
	if first {
		u.Batch.Conn = &model.ConnState{Phase: model.PhaseListed}
	}
	return u
}

// TestNotifierRateLimitsAFlappingFleet flaps 5 conversations between
// running and error every 10 ms for 8 s (of a synctest clock): without a
// limit that rang 400 times. At most one notification a second rings, and
// each conversation at most once in 10 s: the first notification names
// one and counts the 4 more.
func TestNotifierRateLimitsAFlappingFleet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := New()
		var n Notifier
		var notices []Notice
		ring := func(no Notice, ok bool) {
			if ok {
				notices = append(notices, no)
			}
		}
		start := time.Now()
		for step := 0; time.Since(start) < 8*time.Second; step++ {
			status := model.StatusRunning
			if step%2 == 1 {
				status = model.StatusError
			}
			var ups []model.FleetUpdate
			for c := range 5 {
				ups = append(ups, flap(fmt.Sprint(c), status, step == 0))
			}
			ring(n.Raise(time.Now(), f.Apply(ups)))
			ring(n.Flush(time.Now()))
			time.Sleep(10 * time.Millisecond)
		}
		if len(notices) != 1 || notices[0].More != 4 {
			t.Fatalf("notices %+v, want one naming a conversation and 4 more", notices)
		}
		// Past 10 s, the flapping rings again: once.
		time.Sleep(3 * time.Second)
		ring(n.Raise(time.Now(), f.Apply([]model.FleetUpdate{flap("0", model.StatusRunning, false)})))
		ring(n.Raise(time.Now(), f.Apply([]model.FleetUpdate{flap("0", model.StatusError, false)})))
		ring(n.Raise(time.Now(), f.Apply([]model.FleetUpdate{flap("0", model.StatusRunning, false)})))
		ring(n.Raise(time.Now(), f.Apply([]model.FleetUpdate{flap("0", model.StatusError, false)})))
		if len(notices) != 2 || notices[1].More != 0 || notices[1].First.Ref.ID != "0" {
			t.Fatalf("notices %+v, want a second for conversation 0 alone", notices)
		}
	})
}

// TestNotifierHoldsWhatTheOverallLimitStops: a conversation raised within
// a second of another's notification rings once the second has passed,
// with any others held meanwhile, as one notification.
func TestNotifierHoldsWhatTheOverallLimitStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := New()
		f.Apply([]model.FleetUpdate{flap("a", model.StatusRunning, true), flap("b", model.StatusRunning, true), flap("c", model.StatusRunning, true)})
		var n Notifier
		if no, ok := n.Raise(time.Now(), f.Apply([]model.FleetUpdate{flap("a", model.StatusError, false)})); !ok || no.First.Ref.ID != "a" {
			t.Fatalf("the first did not ring: %+v %v", no, ok)
		}
		time.Sleep(300 * time.Millisecond)
		if _, ok := n.Raise(time.Now(), f.Apply([]model.FleetUpdate{flap("b", model.StatusWaitingForConfirmation, false), flap("c", model.StatusError, false)})); ok {
			t.Fatal("rang twice within a second")
		}
		if d, ok := n.Wait(time.Now()); !ok || d != 700*time.Millisecond {
			t.Fatalf("wait %s %v, want 700ms", d, ok)
		}
		time.Sleep(700 * time.Millisecond)
		no, ok := n.Flush(time.Now())
		if !ok || no.First.Ref.ID != "b" || no.More != 1 {
			t.Fatalf("held: %+v %v, want b and 1 more", no, ok)
		}
		if _, ok := n.Wait(time.Now()); ok {
			t.Fatal("still holding")
		}
	})
}
