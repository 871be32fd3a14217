package agentserver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"ohwatch/model"
)

// TestOversizedEventEndsTheWatchInsteadOfLooping: an event over the read
// limit ends every connection that replays it. Going live used to reset
// the backoff, so the watch reconnected (and downloaded the event) for
// ever. Now the backoff keeps growing while the same failure repeats
// without progress, the watch gives up with a final failure naming the
// cause, and a placeholder marks the event that could not be read.
func TestOversizedEventEndsTheWatchInsteadOfLooping(t *testing.T) {
	f := newFakeServer(t, "k")
	f.persist(3)
	c := f.client(t)
	c.readLimit, c.maxBody = 16<<10, 16<<10 // REST cannot fetch it either
	opts := fastWatch()
	opts.MaxBackoff = time.Second
	// Bounded: before the fix the watch looped until cancelled.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	col := collect(c.Watch(ctx, f.id, opts))
	col.waitFor(t, "live", func(c *collector) bool { return c.lives() == 1 })

	f.mu.Lock()
	huge := f.eventLocked("ObservationEvent", fmt.Sprintf(`"observation":{"kind":"TerminalObservation","content":[{"type":"text","text":%q}]}`, strings.Repeat("x", 40<<10)))
	f.persistLocked(huge)
	f.mu.Unlock()
	f.broadcast(huge)

	last := col.endsFinal(t, CodeConnect, "over the 16 KiB limit for one event")
	if !strings.Contains(last.Reason, fmt.Sprintf("gave up after %d attempts", oversizeGiveUp)) {
		t.Errorf("reason %q does not say it gave up", last.Reason)
	}
	var attempts []int
	var waits []time.Duration
	for _, cs := range col.conns {
		if cs.Phase == model.PhaseReconnecting {
			attempts = append(attempts, cs.Attempt)
			waits = append(waits, cs.RetryIn)
		}
	}
	if len(attempts) != oversizeGiveUp-1 {
		t.Fatalf("reconnects %v, want %d before giving up", attempts, oversizeGiveUp-1)
	}
	for i := 1; i < len(waits); i++ {
		if waits[i] <= waits[i-1] || attempts[i] != attempts[i-1]+1 {
			t.Fatalf("the backoff was reset: attempts %v, waits %v", attempts, waits)
		}
	}
	placeholders := 0
	for _, ev := range col.events {
		if strings.HasPrefix(ev.ID, "unreadable-") {
			placeholders++
			reason, unknown := model.IsUnknown(ev)
			if !unknown || !strings.Contains(reason, "ObservationEvent is over the 16 KiB limit") || ev.ID != "unreadable-"+idOf(huge) {
				t.Errorf("placeholder %+v (%q)", ev, reason)
			}
			if !strings.Contains(ev.Summary, "unreadable ObservationEvent") {
				t.Errorf("placeholder summary %q", ev.Summary)
			}
		}
	}
	if placeholders != 1 {
		t.Errorf("%d placeholders, want exactly 1", placeholders)
	}
}

// TestRepeatedDropsAfterProgressStillResetTheBackoff: a connection that
// brought new events before it dropped was worth making, so the next
// wait starts again from the base backoff.
func TestRepeatedDropsAfterProgressStillResetTheBackoff(t *testing.T) {
	f := newFakeServer(t, "k")
	f.persist(2)
	col := f.watchLive(t, fastWatch())
	for i := range 3 {
		f.emit(1)
		col.waitCount(t, "event", 3+i)
		f.dropAll()
		col.waitFor(t, "reconnect", func(c *collector) bool { return c.lives() == 2+i })
	}
	col.stop()
	for _, cs := range col.conns {
		if cs.Phase == model.PhaseReconnecting && cs.Attempt != 1 {
			t.Errorf("a reconnect after progress is attempt %d, want 1", cs.Attempt)
		}
	}
}
