package serve

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"ohwatch/model"
)

// bigBase is a base_state.json with a large field (as the full Metrics
// lists of a long run are), n entries.
func bigBase(t *testing.T, n int) *model.BaseState {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"id":"` + convID + `","execution_status":"finished","blocked_actions":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"action-%d":"blocked by policy %d"`, i, i)
	}
	b.WriteString(`},"stats":{"usage_to_metrics":{}}}`)
	base, err := model.DecodeBaseState([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return base
}

// TestSnapshotDoesNotReparseTheBase builds snapshots of a conversation with
// a large base state: the base is parsed and encoded once, so a snapshot
// costs one copy of it, not a parse and an encoding (several copies).
func TestSnapshotDoesNotReparseTheBase(t *testing.T) {
	base := bigBase(t, 20_000)
	c := newConversation(convID, base, basicRun(t), &Options{}, newFaultState(Faults{}), nil)
	for i := range c.recorded {
		c.emitRecorded(i)
	}
	var snap []byte
	const runs = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		c.mu.Lock()
		snap = c.snapshotLocked()
		c.mu.Unlock()
	}
	runtime.ReadMemStats(&after)
	perSnapshot := float64(after.TotalAlloc-before.TotalAlloc) / runs
	if limit := 1.5 * float64(len(base.Raw)); perSnapshot > limit {
		t.Errorf("a snapshot allocates %.0f bytes for a %d-byte base: more than one copy", perSnapshot, len(base.Raw))
	}
	var frame struct {
		Value struct {
			Blocked map[string]string `json:"blocked_actions"`
			Status  string            `json:"execution_status"`
		} `json:"value"`
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(snap, &frame); err != nil {
		t.Fatal(err)
	}
	if len(frame.Value.Blocked) != 20_000 || frame.Value.Status != model.StatusFinished || frame.Kind != "ConversationStateUpdateEvent" {
		t.Errorf("snapshot: %d blocked actions, status %q, kind %q", len(frame.Value.Blocked), frame.Value.Status, frame.Kind)
	}
}

// TestNoSnapshotForNoOne replays runs that end, with and without a
// subscriber: a snapshot is built only for someone to receive it.
func TestNoSnapshotForNoOne(t *testing.T) {
	for _, subscribed := range []bool{false, true} {
		t.Run(fmt.Sprint("subscribed=", subscribed), func(t *testing.T) {
			c := newConversation(convID, bigBase(t, 1000), basicRun(t), &Options{}, newFaultState(Faults{}), nil)
			if subscribed {
				c.subscribe(newSubscriber(), resend{}, Faults{}) // builds nothing: nothing was emitted
			}
			c.play(t.Context(), &Options{})
			c.mu.Lock()
			built := c.snapshots
			c.mu.Unlock()
			if subscribed && built != 1 {
				t.Errorf("%d snapshots for the run's end, want 1", built)
			}
			if !subscribed && built != 0 {
				t.Errorf("%d snapshots built with no one subscribed", built)
			}
		})
	}
}
