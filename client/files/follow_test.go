package files

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"ohwatch/model"
)

// collect reads batches from out until want events arrived or the
// deadline passed.
func collect(t *testing.T, out <-chan model.Batch, want int, deadline time.Duration) (events []model.Event, warnings []string, batches []model.Batch) {
	t.Helper()
	timeout := time.After(deadline)
	for len(events) < want {
		select {
		case b := <-out:
			batches = append(batches, b)
			events = append(events, b.Events...)
			warnings = append(warnings, b.Warnings...)
		case <-timeout:
			t.Fatalf("got %d of %d events in %v; warnings %q", len(events), want, deadline, warnings)
		}
	}
	return events, warnings, batches
}

// TestFollowPicksUpSlowAndHalfWrittenFiles tails a directory while a
// writer adds event files slowly, some of them in two halves with a pause
// in between, as the SDK's non-atomic writes can be seen: every event
// arrives once, in index order, with no warning.
func TestFollowPicksUpSlowAndHalfWrittenFiles(t *testing.T) {
	// In a bubble the writer's pauses and the polls are one fake clock:
	// the polls that see half a file are always several, at any load.
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		events := filepath.Join(dir, "events")
		const existing, added = 5, 12
		for i := range existing {
			writeEvent(t, events, i, eventID(i), messageEvent(eventID(i), "old"))
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		out := make(chan model.Batch)
		done := make(chan error, 1)
		go func() {
			done <- (&Follower{Dir: dir, Poll: 20 * time.Millisecond, GiveUp: 3 * time.Second}).Run(ctx, out)
		}()

		first := <-out
		if first.Conn == nil || first.Conn.Phase != model.PhaseLive || len(first.Events) != existing {
			t.Fatalf("first batch: conn %v, %d events; want live and the %d already there", first.Conn, len(first.Events), existing)
		}
		writerErr := make(chan error, 1)
		go func() {
			for i := existing; i < existing+added; i++ {
				raw := messageEvent(eventID(i), fmt.Sprint("new ", i))
				path := filepath.Join(events, fmt.Sprintf("event-%05d-%s.json", i, eventID(i)))
				if i%3 == 0 {
					if err := os.WriteFile(path, raw[:len(raw)/2], 0o644); err != nil {
						writerErr <- err
						return
					}
					time.Sleep(60 * time.Millisecond) // several polls see half a file
					f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						writerErr <- err
						return
					}
					_, err = f.Write(raw[len(raw)/2:])
					if cerr := f.Close(); err == nil {
						err = cerr
					}
					if err != nil {
						writerErr <- err
						return
					}
				} else if err := os.WriteFile(path, raw, 0o644); err != nil {
					writerErr <- err
					return
				}
				time.Sleep(15 * time.Millisecond)
			}
			writerErr <- nil
		}()
		got, warnings, _ := collect(t, out, added, 10*time.Second)
		if err := <-writerErr; err != nil {
			t.Fatal(err)
		}
		if len(warnings) != 0 {
			t.Errorf("half-written files were reported: %q", warnings)
		}
		if len(got) != added {
			t.Fatalf("%d events, want %d", len(got), added)
		}
		for i, ev := range got {
			if ev.ID != eventID(existing+i) {
				t.Fatalf("event %d is %s, want %s (index order)", i, ev.ID, eventID(existing+i))
			}
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
	})
}

// TestFollowGivesUpOnAStuckFile reports a file that stays unparseable past
// GiveUp, then hands out the events held back behind it.
func TestFollowGivesUpOnAStuckFile(t *testing.T) {
	dir := t.TempDir()
	events := filepath.Join(dir, "events")
	writeEvent(t, events, 0, eventID(0), messageEvent(eventID(0), "ok"))
	bad := writeEvent(t, events, 1, eventID(1), []byte(`{"kind":"Mess`))
	writeEvent(t, events, 2, eventID(2), messageEvent(eventID(2), "behind"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan model.Batch, 16)
	go (&Follower{Dir: dir, Poll: 10 * time.Millisecond, GiveUp: 150 * time.Millisecond}).Run(ctx, out)
	got, warnings, batches := collect(t, out, 2, 5*time.Second)
	if len(batches[0].Events) != 1 {
		t.Errorf("first batch has %d events; the one behind the bad file should wait", len(batches[0].Events))
	}
	if got[1].ID != eventID(2) {
		t.Errorf("second event %s", got[1].ID)
	}
	hasWarning(t, warnings, "events/"+bad, "truncated JSON", "unreadable for 150ms")

	// Completed at last, the file is handed out late rather than lost.
	writeEvent(t, events, 1, eventID(1), messageEvent(eventID(1), "late"))
	late, warnings, _ := collect(t, out, 1, 5*time.Second)
	if late[0].ID != eventID(1) {
		t.Errorf("late event %s", late[0].ID)
	}
	hasWarning(t, warnings, "events/"+bad+": readable at last")
}

// TestFollowReportsGapsAndWaitsForEventsDir starts on a conversation
// directory with no events/ yet and reports an index gap once it fills.
func TestFollowReportsGapsAndWaitsForEventsDir(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan model.Batch, 16)
	go (&Follower{Dir: dir, Poll: 10 * time.Millisecond}).Run(ctx, out)
	if first := <-out; len(first.Events) != 0 || first.Conn == nil {
		t.Fatalf("first batch %+v", first)
	}
	events := filepath.Join(dir, "events")
	writeEvent(t, events, 0, eventID(0), messageEvent(eventID(0), "a"))
	writeEvent(t, events, 3, eventID(3), messageEvent(eventID(3), "b"))
	_, warnings, _ := collect(t, out, 2, 5*time.Second)
	hasWarning(t, warnings, "events/: index gap: events 00001-00002 are missing")
}

// TestFollowMissingDirectory is an error at once.
func TestFollowMissingDirectory(t *testing.T) {
	err := Follow(context.Background(), filepath.Join(t.TempDir(), "nope"), make(chan model.Batch))
	if err == nil {
		t.Fatal("no error for a missing directory")
	}
}

// TestFollowARecording tails a directory a Recorder is writing: the
// temporary files of its atomic writes are never taken for events, and
// every recorded event arrives once, in order.
func TestFollowARecording(t *testing.T) {
	// The writer's pauses and the polls on one fake clock.
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		rec, err := NewRecorder(dir)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		out := make(chan model.Batch, 64)
		go (&Follower{Dir: dir, Poll: 5 * time.Millisecond}).Run(ctx, out)
		const n = 60
		go func() {
			defer rec.Close()
			for i := range n {
				ev, err := model.Decode(messageEvent(eventID(i), fmt.Sprint("live ", i)))
				if err == nil {
					err = rec.Record(ev)
				}
				if err != nil {
					t.Error(err)
					return
				}
				if i%10 == 0 {
					time.Sleep(10 * time.Millisecond)
				}
			}
		}()
		got, warnings, _ := collect(t, out, n, 10*time.Second)
		if len(warnings) != 0 {
			t.Errorf("warnings: %q", warnings)
		}
		for i, ev := range got {
			if ev.ID != eventID(i) {
				t.Fatalf("event %d is %s", i, ev.ID)
			}
		}
	})
}

// TestFollowFromSkipsWhatWasRead: a conversation read once and then
// followed from where the read ended hands out only the files after it,
// without a gap warning for the ones it skipped.
func TestFollowFromSkipsWhatWasRead(t *testing.T) {
	dir := t.TempDir()
	events := filepath.Join(dir, "events")
	for i := range 4 {
		writeEvent(t, events, i, eventID(i), messageEvent(eventID(i), "read before"))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan model.Batch, 16)
	go (&Follower{Dir: dir, Poll: 5 * time.Millisecond, From: 4}).Run(ctx, out)
	if first := <-out; len(first.Events) != 0 || len(first.Warnings) != 0 || first.Conn == nil {
		t.Fatalf("first batch: %d events, warnings %q; want none", len(first.Events), first.Warnings)
	}
	writeEvent(t, events, 4, eventID(4), messageEvent(eventID(4), "new"))
	got, warnings, _ := collect(t, out, 1, 5*time.Second)
	if len(got) != 1 || got[0].ID != eventID(4) || len(warnings) != 0 {
		t.Fatalf("got %d events (first %s), warnings %q; want event 4 alone", len(got), got[0].ID, warnings)
	}
}
