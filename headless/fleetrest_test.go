package headless

import (
	"bytes"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"ohwatch/model"
)

// listed is the update of a conversation shown from its server's listing
// alone, with this status, last active at updated.
func (c *fconv) listed(status string, updated time.Time) model.FleetUpdate {
	return model.FleetUpdate{Ref: c.ref, Meta: &model.ConversationMeta{Title: "task " + c.ref.ID, Status: status, CreatedAt: updated, UpdatedAt: updated},
		Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseListed}}}
}

// runUntilAll runs a --until all watch over feed in the test's bubble and
// returns its exit code, its output and how long it took.
func runUntilAll(t *testing.T, feed chan []model.FleetUpdate, script func()) (int, string, time.Duration) {
	t.Helper()
	var out bytes.Buffer
	start := time.Now()
	done := make(chan int)
	go func() { done <- RunFleet(t.Context(), feed, &out, FleetOptions{Until: UntilAll, Sources: 0}) }()
	script()
	code := <-done
	return code, out.String(), time.Since(start)
}

// TestUntilAllWaitsForAConversationListedBeforeItsRun: a conversation
// listed idle before its first run (just created, a staggered or held
// start) holds --until all; once it runs and finishes, the watch ends on
// the outcome of every conversation. Before the rule it ended at once on
// the first listing, counting the idle one at rest (exit 5).
func TestUntilAllWaitsForAConversationListedBeforeItsRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := newFconv("a"), newFconv("b")
		feed := make(chan []model.FleetUpdate)
		code, out, took := runUntilAll(t, feed, func() {
			feed <- []model.FleetUpdate{a.listed(model.StatusIdle, time.Now())}
			time.Sleep(20 * time.Second) // a busy server starts it late
			feed <- []model.FleetUpdate{b.listed(model.StatusRunning, time.Now()), b.conn(model.PhaseLive, false, ""), a.conn(model.PhaseLive, false, ""), a.status("running", false)}
			feed <- append(a.ending(endFinished), b.status("error", false))
		})
		if code != ExitError || !strings.Contains(out, "2 conversations: 1 error, 1 finished (exit 1)") {
			t.Fatalf("exit %d after %v:\n%s", code, took, out)
		}
	})
}

// TestUntilAllIdleForkHoldsForTheGraceOnly: an idle conversation nobody
// runs (a fork) holds --until all for DefaultIdleGrace after the watch
// listed it, then counts as at rest (no terminal state, exit 5) beside
// the others' outcomes; nothing else has to come for the watch to end.
func TestUntilAllIdleForkHoldsForTheGraceOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fork, done := newFconv("fork"), newFconv("done")
		feed := make(chan []model.FleetUpdate, 1)
		code, out, took := runUntilAll(t, feed, func() {
			feed <- []model.FleetUpdate{fork.listed(model.StatusIdle, time.Now()), done.listed(model.StatusFinished, time.Now())}
		})
		if code != ExitNoTerminal || took != DefaultIdleGrace || !strings.Contains(out, "2 conversations: 1 finished, 1 idle (exit 5)") {
			t.Fatalf("exit %d after %v, want 5 after %v:\n%s", code, took, DefaultIdleGrace, out)
		}
	})
}

// TestUntilAllIdleGraceRestartsOnActivity: an idle conversation whose
// listing moves (a message was sent, its run not yet begun) is timed
// again from then.
func TestUntilAllIdleGraceRestartsOnActivity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newFconv("c")
		feed := make(chan []model.FleetUpdate, 1)
		code, _, took := runUntilAll(t, feed, func() {
			feed <- []model.FleetUpdate{c.listed(model.StatusIdle, time.Now())}
			time.Sleep(DefaultIdleGrace - time.Second)
			feed <- []model.FleetUpdate{c.listed(model.StatusIdle, time.Now())}
		})
		if want := 2*DefaultIdleGrace - time.Second; code != ExitNoTerminal || took != want {
			t.Fatalf("exit %d after %v, want 5 after %v", code, took, want)
		}
	})
}

// TestUntilAllAtRestAtOnce: what is at rest for good does not hold --until
// all at all: a paused conversation, one idle after a run the watch saw,
// and one that was idle for a grace before the watch listed it.
func TestUntilAllAtRestAtOnce(t *testing.T) {
	cases := map[string]func(c *fconv) [][]model.FleetUpdate{
		"paused": func(c *fconv) [][]model.FleetUpdate {
			return [][]model.FleetUpdate{{c.listed(model.StatusPaused, time.Now())}}
		},
		"idle after its run": func(c *fconv) [][]model.FleetUpdate {
			return [][]model.FleetUpdate{{c.conn(model.PhaseLive, false, ""), c.status("running", false)}, {c.status("idle", true)}}
		},
		"idle long before": func(c *fconv) [][]model.FleetUpdate {
			return [][]model.FleetUpdate{{c.listed(model.StatusIdle, time.Now().Add(-DefaultIdleGrace))}}
		},
	}
	for name, script := range cases {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				feed := make(chan []model.FleetUpdate, 2)
				code, out, took := runUntilAll(t, feed, func() {
					for _, ups := range script(newFconv("c")) {
						feed <- ups
					}
				})
				if code != ExitNoTerminal || took != 0 {
					t.Fatalf("exit %d after %v, want 5 at once:\n%s", code, took, out)
				}
			})
		})
	}
}
