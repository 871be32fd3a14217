package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// fconv scripts one conversation of a fleet.
type fconv struct {
	ref model.ConversationRef
	n   int
}

func newFconv(id string) *fconv {
	return &fconv{ref: model.ConversationRef{Source: "http://127.0.0.1:8000", Kind: model.SourceServer, ID: id}}
}

func (c *fconv) status(v string, full bool) model.FleetUpdate {
	c.n++
	su := &model.StateUpdate{Key: "execution_status", ExecutionStatus: v}
	if full {
		su = &model.StateUpdate{Key: "full_state", FullState: true, ExecutionStatus: v}
	}
	ev := model.Event{Kind: "ConversationStateUpdateEvent", ID: fmt.Sprintf("%s-%d", c.ref.ID, c.n),
		Time: time.Date(2026, 11, 30, 0, 0, c.n, 0, time.UTC), Source: "environment", Body: su}
	return model.FleetUpdate{Ref: c.ref, Batch: model.Batch{Events: []model.Event{ev}}}
}

func (c *fconv) conn(p model.Phase, final bool, reason string) model.FleetUpdate {
	return model.FleetUpdate{Ref: c.ref, Batch: model.Batch{Conn: &model.ConnState{Phase: p, Final: final, Reason: reason}}}
}

func (c *fconv) title(t string) model.FleetUpdate {
	return model.FleetUpdate{Ref: c.ref, Meta: &model.ConversationMeta{Title: t}}
}

// end is how a scripted conversation ends.
type end int

const (
	endFinished end = iota
	endError
	endStuck
	endLost
	endRunning
)

func (c *fconv) ending(e end) []model.FleetUpdate {
	switch e {
	case endFinished:
		return []model.FleetUpdate{c.status("finished", true)}
	case endError:
		return []model.FleetUpdate{c.status("error", false)}
	case endStuck:
		return []model.FleetUpdate{c.status("stuck", false)}
	case endLost:
		return []model.FleetUpdate{c.conn(model.PhaseLost, true, "authentication rejected")}
	}
	return nil
}

func TestFleetUntil(t *testing.T) {
	tests := []struct {
		name  string
		until Until
		ends  []end
		// doneAt is the index in ends after whose update the watch is done
		// (-1: never).
		doneAt int
		code   int
	}{
		{"all finished", UntilAll, []end{endFinished, endFinished}, 1, ExitFinished},
		{"all: error is worst", UntilAll, []end{endFinished, endStuck, endError, endLost}, 3, ExitError},
		{"all: stuck over none", UntilAll, []end{endLost, endStuck, endFinished}, 2, ExitStuck},
		{"all: none over finished", UntilAll, []end{endFinished, endLost}, 1, ExitNoTerminal},
		{"all waits for the last", UntilAll, []end{endFinished, endRunning}, -1, 0},
		{"any: first terminal", UntilAny, []end{endRunning, endStuck, endFinished}, 1, ExitStuck},
		{"any: a lost one is not terminal", UntilAny, []end{endLost, endRunning, endFinished}, 2, ExitFinished},
		{"any: all lost", UntilAny, []end{endLost, endLost}, 1, ExitNoTerminal},
		{"never", UntilNever, []end{endFinished, endError}, -1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := NewFleetWatch(FleetOptions{Until: tc.until})
			var cs []*fconv
			var start []model.FleetUpdate
			for i := range tc.ends {
				c := newFconv(fmt.Sprintf("c%d", i))
				cs = append(cs, c)
				start = append(start, c.title("task "+c.ref.ID), c.conn(model.PhaseLive, false, ""), c.status("running", false))
			}
			if _, done, _ := w.Handle(start); done {
				t.Fatal("done while every conversation runs")
			}
			doneAt := -1
			var code int
			for i, c := range cs {
				lines, done, cd := w.Handle(c.ending(tc.ends[i]))
				if done {
					doneAt, code = i, cd
					if !strings.Contains(lines[len(lines)-1], fmt.Sprintf("(exit %d)", cd)) {
						t.Errorf("result line %q", lines[len(lines)-1])
					}
					break
				}
			}
			if doneAt != tc.doneAt || code != tc.code {
				t.Fatalf("done after %d with %d, want after %d with %d", doneAt, code, tc.doneAt, tc.code)
			}
		})
	}
}

func TestFleetLines(t *testing.T) {
	w := NewFleetWatch(FleetOptions{Until: UntilAll})
	a, b := newFconv("a"), newFconv("b")
	var out []string
	handle := func(ups ...model.FleetUpdate) bool {
		lines, done, _ := w.Handle(ups)
		out = append(out, lines...)
		return done
	}
	handle(a.title("Fix \x1b]0;evil\x07the bug"), a.conn(model.PhaseLive, false, ""), a.status("running", false),
		b.title("Docs"), b.conn(model.PhaseLive, false, ""))
	handle(a.status("finished", false))
	handle(a.status("finished", true))
	handle(b.status("running", false))
	if !handle(b.conn(model.PhaseLost, true, "authentication rejected")) {
		t.Fatal("not done")
	}
	got := strings.Join(out, "")
	want := `  >> a  unknown -> running (per-field)  "Fix the bug"  [http://127.0.0.1:8000]
  >> a  running -> finished? (provisional, per-field)  "Fix the bug"  [http://127.0.0.1:8000]
  >> a  finished? -> finished (confirmed, full_state)  "Fix the bug"  [http://127.0.0.1:8000]
  >> b  unknown -> running (per-field)  "Docs"  [http://127.0.0.1:8000]
  -- b  ended without a terminal state (lost: authentication rejected; last status: running (per-field))  "Docs"  [http://127.0.0.1:8000]

every conversation ended; 2 conversations: 1 none, 1 finished (exit 5)
`
	if got != want {
		t.Fatalf("lines:\n%s\nwant:\n%s", got, want)
	}
}

func TestFleetJSONLines(t *testing.T) {
	w := NewFleetWatch(FleetOptions{JSON: true, Until: UntilAny})
	a := newFconv("a")
	w.Handle([]model.FleetUpdate{a.title("T"), a.conn(model.PhaseLive, false, ""), a.status("running", false)})
	lines, done, code := w.Handle([]model.FleetUpdate{a.status("error", false)})
	if !done || code != ExitError || len(lines) != 2 {
		t.Fatalf("done %v code %d lines %q", done, code, lines)
	}
	var st, res map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &st); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &res); err != nil {
		t.Fatal(err)
	}
	if st["type"] != "status" || st["id"] != "a" || st["title"] != "T" || st["from"] != "running" || st["status"] != "error" ||
		st["attention"] != "error" || st["source_kind"] != "server" {
		t.Fatalf("status line %v", st)
	}
	if res["type"] != "result" || res["exit"] != float64(ExitError) || res["until"] != "any" {
		t.Fatalf("result line %v", res)
	}
}

// TestFleetRecording runs a real recording through the watch: every status
// change of the recording is one line, and a source that ends gives the
// recording's last status as final.
func TestFleetRecording(t *testing.T) {
	evs := testevents.Twin(t, "confirmation_mode")
	ref := model.ConversationRef{Source: "/root", Kind: model.SourceLocal, ID: "confirmation_mode"}
	feed := make(chan []model.FleetUpdate, len(evs)+2)
	feed <- []model.FleetUpdate{{Ref: ref, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}}}
	for _, ev := range evs {
		feed <- []model.FleetUpdate{{Ref: ref, Batch: model.Batch{Events: []model.Event{ev}}}}
	}
	feed <- []model.FleetUpdate{{Ref: ref, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseDone}}}}
	var out strings.Builder
	code := RunFleet(context.Background(), feed, &out, FleetOptions{Until: UntilAll})
	if code != ExitFinished {
		t.Fatalf("exit %d\n%s", code, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var statuses []string
	for _, l := range lines {
		if strings.HasPrefix(l, "  >> ") {
			statuses = append(statuses, strings.Fields(l)[4])
		}
	}
	want := "running finished? running waiting_for_confirmation running finished? running finished? finished"
	if got := strings.Join(statuses, " "); got != want {
		t.Fatalf("statuses %q, want %q\n%s", got, want, out.String())
	}
}

func TestRunFleetEnds(t *testing.T) {
	feed := make(chan []model.FleetUpdate)
	close(feed)
	var out strings.Builder
	if code := RunFleet(context.Background(), feed, &out, FleetOptions{Until: UntilAll}); code != ExitNoTerminal ||
		!strings.Contains(out.String(), "the sources ended; no conversations (exit 5)") {
		t.Fatalf("closed feed: %d %q", code, out.String())
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(exitCause{code: 143})
	out.Reset()
	if code := RunFleet(ctx, make(chan []model.FleetUpdate), &out, FleetOptions{}); code != 143 ||
		!strings.Contains(out.String(), "interrupted by SIGTERM") {
		t.Fatalf("cancelled: %d %q", code, out.String())
	}
	if _, err := ParseUntil("some"); err == nil {
		t.Fatal("--until some accepted")
	}
	for _, s := range []string{"", "all", "any"} {
		if u, err := ParseUntil(s); err != nil || u.String() != s {
			t.Fatalf("%q: %v %v", s, u, err)
		}
	}
}

func TestFleetSources(t *testing.T) {
	w := NewFleetWatch(FleetOptions{Until: UntilAll})
	src := model.ConversationRef{Source: "cloud", Kind: model.SourceCloud}
	lines, done, _ := w.Handle([]model.FleetUpdate{{Ref: src, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Attempt: 1, Reason: "503"}}}})
	if done || strings.Join(lines, "") != "  -- source cloud: reconnect #1 (503)\n" {
		t.Fatalf("lines %q", lines)
	}
	if lines, _, _ := w.Handle([]model.FleetUpdate{{Ref: src, Batch: model.Batch{Warnings: []string{"x"}}}}); strings.Join(lines, "") != "  -- source cloud: x\n" {
		t.Fatalf("a source's warning printed %q, want it once and its unchanged state not again", lines)
	}
	lines, done, code := w.Handle([]model.FleetUpdate{{Ref: src, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLost, Final: true, Reason: "key rejected"}}}})
	if !done || code != ExitUnreachable || !strings.Contains(strings.Join(lines, ""), "no source could be reached; no conversations (exit 4)") {
		t.Fatalf("done %v code %d lines %q", done, code, lines)
	}
}

// TestFleetUntilAwaitsEvents: a listing that says finished ends an
// --until all watch, unless the watch awaits the events (as --otlp does):
// then only once the conversation's events are in.
func TestFleetUntilAwaitsEvents(t *testing.T) {
	for _, await := range []bool{false, true} {
		w := NewFleetWatch(FleetOptions{Until: UntilAll, AwaitEvents: await})
		c := newFconv("c0")
		listed := model.FleetUpdate{Ref: c.ref, Meta: &model.ConversationMeta{Title: "t", Status: model.StatusFinished, BaseStatus: true}}
		_, done, _ := w.Handle([]model.FleetUpdate{listed})
		if done == await {
			t.Fatalf("await %v: done %v on the listing alone", await, done)
		}
		if !await {
			continue
		}
		if _, done, _ = w.Handle([]model.FleetUpdate{c.conn(model.PhaseConnecting, false, "")}); done {
			t.Fatal("done while connecting")
		}
		// A local read says live with its first chunk of history.
		first := c.status("running", false)
		first.Batch.Conn = &model.ConnState{Phase: model.PhaseLive}
		first.Batch.Progress = &model.Progress{Done: 1, Total: 3}
		if _, done, _ = w.Handle([]model.FleetUpdate{first}); done {
			t.Fatal("done while the events are being read")
		}
		last := c.status("finished", true)
		last.Batch.Progress = &model.Progress{Done: 3, Total: 3}
		_, done, code := w.Handle([]model.FleetUpdate{last, c.conn(model.PhaseDone, false, "")})
		if !done || code != ExitFinished {
			t.Fatalf("with the events in: done %v, exit %d", done, code)
		}
	}
}

// TestFleetUntilAwaitsEverySource: with two sources, --until all is not
// met by the first source's conversations alone; it is once the second has
// listed its own (or failed to).
func TestFleetUntilAwaitsEverySource(t *testing.T) {
	for _, second := range []string{"lists", "fails"} {
		t.Run(second, func(t *testing.T) {
			w := NewFleetWatch(FleetOptions{Until: UntilAll, Sources: 2, SourcesReported: true})
			a := newFconv("a0")
			srcA := model.FleetUpdate{Ref: model.ConversationRef{Source: a.ref.Source, Kind: a.ref.Kind},
				Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}}
			lines, done, _ := w.Handle([]model.FleetUpdate{a.title("a"), a.conn(model.PhaseLive, false, ""), a.status("finished", true), srcA})
			if done {
				t.Fatal("done before the second source listed")
			}
			for _, l := range lines {
				if strings.Contains(l, "source") {
					t.Errorf("a source line printed though the caller reports sources: %q", l)
				}
			}
			b := &fconv{ref: model.ConversationRef{Source: "http://127.0.0.1:9000", Kind: model.SourceServer, ID: "b0"}}
			srcB := model.FleetUpdate{Ref: model.ConversationRef{Source: b.ref.Source, Kind: b.ref.Kind},
				Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Reason: "refused"}}}
			ups := []model.FleetUpdate{srcB}
			if second == "lists" {
				srcB.Batch.Conn = &model.ConnState{Phase: model.PhaseLive}
				ups = []model.FleetUpdate{b.title("b"), b.conn(model.PhaseLive, false, ""), b.status("running", false), srcB}
			}
			_, done, code := w.Handle(ups)
			if second == "fails" {
				if !done || code != ExitFinished {
					t.Fatalf("a failing second source: done %v exit %d", done, code)
				}
				return
			}
			if done {
				t.Fatal("done while the second source's conversation runs")
			}
			if _, done, code = w.Handle(b.ending(endError)); !done || code != ExitError {
				t.Fatalf("done %v exit %d, want the error of the second source's conversation", done, code)
			}
		})
	}
}
