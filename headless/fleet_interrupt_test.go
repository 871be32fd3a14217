package headless

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"ohwatch/model"
)

// TestRunFleetInterruptedWhileTheSourcesEnd interrupts a busy fleet whose
// feed closes because the interrupt ended its sources, as a fleet's feed
// does: both are ready at once, and the interrupt must win every time
// (130), never "the sources ended" (5).
func TestRunFleetInterruptedWhileTheSourcesEnd(t *testing.T) {
	for i := range 300 {
		ctx, cancel := context.WithCancel(context.Background())
		feed := make(chan []model.FleetUpdate)
		go func() {
			defer close(feed)
			for n := 0; ; n++ {
				up := model.FleetUpdate{Ref: model.ConversationRef{Source: "s", ID: fmt.Sprint(n % 50)},
					Meta: &model.ConversationMeta{Status: model.StatusRunning}}
				select {
				case feed <- []model.FleetUpdate{up}:
				case <-ctx.Done():
					return
				}
				if n == 20 {
					cancel()
				}
			}
		}()
		if code := RunFleet(ctx, feed, io.Discard, FleetOptions{Until: UntilAll}); code != ExitInterrupted {
			t.Fatalf("run %d: exit %d, want %d", i, code, ExitInterrupted)
		}
	}
}

// TestFleetUntilWithNoConversation: --until all over sources that listed
// nothing ends at once (exit 5, saying there is nothing to wait for);
// over a source whose listing keeps failing it waits, and --watch-timeout
// ends it (exit 5).
func TestFleetUntilWithNoConversation(t *testing.T) {
	src := func(phase model.Phase) []model.FleetUpdate {
		return []model.FleetUpdate{{Ref: model.ConversationRef{Source: "/empty", Kind: model.SourceLocal},
			Batch: model.Batch{Conn: &model.ConnState{Phase: phase, Reason: "no route to host"}}}}
	}
	w := NewFleetWatch(FleetOptions{Until: UntilAll, Sources: 1})
	lines, done, code := w.Handle(src(model.PhaseLive))
	if !done || code != ExitNoTerminal || !strings.Contains(strings.Join(lines, ""), "nothing to wait for") {
		t.Fatalf("an empty root: done %v, exit %d, %q", done, code, lines)
	}
	synctest.Test(t, func(t *testing.T) {
		feed := make(chan []model.FleetUpdate, 1)
		feed <- src(model.PhaseReconnecting)
		var out strings.Builder
		code := RunFleet(context.Background(), feed, &out, FleetOptions{Until: UntilAll, Sources: 1, Timeout: time.Minute})
		if code != ExitNoTerminal || !strings.Contains(out.String(), "no end within --watch-timeout 1m0s") {
			t.Fatalf("a listing that always fails: exit %d, %q", code, out.String())
		}
	})
}

// TestFleetSourceWarningLine: a source's warning (a listing cut at its
// cap) is a "source" line, in JSON too, said once.
func TestFleetSourceWarningLine(t *testing.T) {
	w := NewFleetWatch(FleetOptions{JSON: true})
	up := model.FleetUpdate{Ref: model.ConversationRef{Source: "http://h:1", Kind: model.SourceServer},
		Batch: model.Batch{Warnings: []string{"listing cut at 1000 conversations"}}}
	lines, _, _ := w.Handle([]model.FleetUpdate{up})
	if len(lines) != 1 || !strings.Contains(lines[0], `"type":"source"`) || !strings.Contains(lines[0], `"warning":"listing cut at 1000 conversations"`) {
		t.Fatalf("lines %q", lines)
	}
	if again, _, _ := w.Handle([]model.FleetUpdate{{Ref: model.ConversationRef{Source: "x", ID: "a"}}}); len(again) != 0 && strings.Contains(strings.Join(again, ""), "cut") {
		t.Fatalf("said again: %q", again)
	}
}

// TestFleetLineCutsALongTitle: a listed title of 100 kB (wide runes too)
// is printed in 60 cells, once.
func TestFleetLineCutsALongTitle(t *testing.T) {
	w := NewFleetWatch(FleetOptions{})
	long := strings.Repeat("界", 50_000)
	lines, _, _ := w.Handle([]model.FleetUpdate{{Ref: model.ConversationRef{Source: "s", Kind: model.SourceServer, ID: "a"},
		Meta: &model.ConversationMeta{Title: long, Status: model.StatusRunning}}})
	if len(lines) != 1 || !strings.Contains(lines[0], `"`+strings.Repeat("界", 29)+`…"`) || len(lines[0]) > 300 {
		t.Fatalf("lines %q", lines)
	}
}

// TestFleetUntilAwaitsEventsOfAListedConversation: with AwaitEvents, a
// conversation whose stream rested on its listing (PhaseListed) has its
// events in: --until all ends on its finished.
func TestFleetUntilAwaitsEventsOfAListedConversation(t *testing.T) {
	w := NewFleetWatch(FleetOptions{Until: UntilAll, AwaitEvents: true})
	ref := model.ConversationRef{Source: "s", Kind: model.SourceServer, ID: "a"}
	_, done, _ := w.Handle([]model.FleetUpdate{{Ref: ref, Meta: &model.ConversationMeta{Status: model.StatusFinished}}})
	if done {
		t.Fatal("done before the events were in")
	}
	_, done, code := w.Handle([]model.FleetUpdate{{Ref: ref, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseListed}}}})
	if !done || code != ExitFinished {
		t.Fatalf("done %v, exit %d; want finished", done, code)
	}
}

// TestFleetUntilAllDoesNotWaitOnAListedIdleConversation: a server's
// conversation shown from its listing alone (PhaseListed: nothing streams
// it) whose listing says idle, and last active long before the watch, is
// at rest, as the server states it: --until all ends beside a finished
// one, counting it by its status. (One idle since just now is expected to
// run: fleetrest_test.go.)
func TestFleetUntilAllDoesNotWaitOnAListedIdleConversation(t *testing.T) {
	w := NewFleetWatch(FleetOptions{Until: UntilAll, JSON: true})
	idle := model.ConversationRef{Source: "s", Kind: model.SourceServer, ID: "a"}
	done := model.ConversationRef{Source: "s", Kind: model.SourceServer, ID: "b"}
	listed := &model.ConnState{Phase: model.PhaseListed}
	lines, ended, code := w.Handle([]model.FleetUpdate{
		{Ref: idle, Meta: &model.ConversationMeta{Status: model.StatusIdle, UpdatedAt: time.Now().Add(-time.Hour)}, Batch: model.Batch{Conn: listed}},
		{Ref: done, Meta: &model.ConversationMeta{Status: model.StatusFinished}, Batch: model.Batch{Conn: listed}},
	})
	if !ended || code != ExitNoTerminal {
		t.Fatalf("ended %v, exit %d; want ended with %d:\n%s", ended, code, ExitNoTerminal, strings.Join(lines, ""))
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, `"idle":1`) || !strings.Contains(last, `"finished":1`) {
		t.Fatalf("result %s", last)
	}
}

// TestFleetSourceMissingRootLine: a local root that does not exist is
// said so, once, in the words of its source ("does not exist"), not as
// "reconnect #0".
func TestFleetSourceMissingRootLine(t *testing.T) {
	w := NewFleetWatch(FleetOptions{})
	const missing = "does not exist (listed once created)"
	up := model.FleetUpdate{Ref: model.ConversationRef{Source: "/home/u/.openhands/conversations", Kind: model.SourceLocal},
		Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Reason: missing}}}
	lines, _, _ := w.Handle([]model.FleetUpdate{up})
	if want := "  -- source /home/u/.openhands/conversations: " + missing + "\n"; len(lines) != 1 || lines[0] != want {
		t.Fatalf("lines %q, want %q", lines, want)
	}
}
