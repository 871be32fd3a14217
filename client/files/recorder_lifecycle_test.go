package files

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// recordAll opens dir for id, records events and closes it.
func recordAll(t *testing.T, dir, id string, events []model.Event) {
	t.Helper()
	rec, err := OpenRecorder(context.Background(), dir, RecorderOptions{ConversationID: id})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events {
		if err := rec.Record(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
}

// eventFileCount counts the event files of a recording.
func eventFileCount(t *testing.T, dir string) int {
	t.Helper()
	names, err := readNames(filepath.Join(dir, "events"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := eventFiles(names)
	return len(files)
}

// TestRecorderRerunDoesNotDuplicateIdsThatAreNotHex records the same
// conversation three times into one directory: events whose ids are not
// hex get a hashed file name, and a rerun still knows them, because the
// recorder reads the ids from the events themselves.
func TestRecorderRerunDoesNotDuplicateIdsThatAreNotHex(t *testing.T) {
	dir := t.TempDir()
	var raws [][]byte
	for i := range 6 {
		raws = append(raws, messageEvent(eventID(i), "hex id"))
	}
	for _, id := range []string{"tool_call_1", "abc-summary", "../../escape", "ZZZZZZZZ-not-hex", ""} {
		raws = append(raws, messageEvent(id, "odd id "+id))
	}
	events := testevents.Decode(t, raws...)
	for run := range 3 {
		recordAll(t, dir, "", events)
		if n := eventFileCount(t, dir); n != len(events) {
			t.Fatalf("run %d: %d event files for %d events", run+1, n, len(events))
		}
	}
	conv := mustLoad(t, dir)
	sameRaws(t, rawsOf(conv.Events), raws)
}

// TestRecorderRefusesAnotherConversation: a directory that holds one
// conversation (by its base_state.json, or by the id a recorder left in
// the lock file) refuses another, and takes the same one back.
func TestRecorderRefusesAnotherConversation(t *testing.T) {
	const a, b = "6a1b5c1e-9a4b-4e6f-8a5d-0f0e0d0c0b0a", "7b2c6d2f0a5c4f708b6e1f1e1d1c1b1a"
	events := testevents.Decode(t, messageEvent(eventID(1), "first"))

	t.Run("lock file", func(t *testing.T) {
		dir := t.TempDir()
		recordAll(t, dir, a, events)
		if _, err := OpenRecorder(context.Background(), dir, RecorderOptions{ConversationID: b}); !errors.Is(err, ErrOtherConversation) {
			t.Fatalf("another conversation: %v, want ErrOtherConversation", err)
		} else if msg := err.Error(); !strings.Contains(msg, model.NormalizeConversationID(a)) || !strings.Contains(msg, "record into another directory") {
			t.Errorf("the error does not say what to do: %s", msg)
		}
		// The same conversation, spelt either way, resumes.
		recordAll(t, dir, strings.ReplaceAll(a, "-", ""), append(events, testevents.Decode(t, messageEvent(eventID(2), "second"))...))
		if n := eventFileCount(t, dir); n != 2 {
			t.Fatalf("resume wrote %d files, want 2", n)
		}
		// An unknown id cannot be told apart: it records, as before.
		recordAll(t, dir, "", events)
	})
	t.Run("base_state.json", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "base_state.json"), []byte(`{"id":"`+a+`","execution_status":"finished"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := OpenRecorder(context.Background(), dir, RecorderOptions{ConversationID: b}); !errors.Is(err, ErrOtherConversation) {
			t.Fatalf("another conversation: %v, want ErrOtherConversation", err)
		}
		if n := eventFileCount(t, dir); n != 0 {
			t.Fatalf("a refused recorder wrote %d files", n)
		}
		recordAll(t, dir, a, events)
	})
}

// TestRecorderLockRefusesASecondRecorder: while one recorder holds a
// directory, a second is refused; once it is closed, the directory can be
// recorded into again.
func TestRecorderLockRefusesASecondRecorder(t *testing.T) {
	dir := t.TempDir()
	first, err := OpenRecorder(context.Background(), dir, RecorderOptions{ConversationID: eventID(7)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenRecorder(context.Background(), dir, RecorderOptions{ConversationID: eventID(7)}); !errors.Is(err, ErrRecordingBusy) {
		t.Fatalf("second recorder: %v, want ErrRecordingBusy", err)
	}
	if _, err := NewRecorder(dir); !errors.Is(err, ErrRecordingBusy) {
		t.Fatalf("second recorder without an id: %v, want ErrRecordingBusy", err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := OpenRecorder(context.Background(), dir, RecorderOptions{ConversationID: eventID(7)})
	if err != nil {
		t.Fatalf("after Close: %v", err)
	}
	again.Close()
	// The SDK's loader ignores the lock file: the directory loads cleanly.
	if conv := mustLoad(t, dir); len(conv.Warnings) != 0 {
		t.Errorf("warnings: %q", conv.Warnings)
	}
}

// fullDisk is a WriteFile that writes the first n files and then fails
// as a full disk does.
func fullDisk(n int) func(dir, name string, data []byte) error {
	return func(dir, name string, data []byte) error {
		if n <= 0 {
			return &os.PathError{Op: "write", Path: filepath.Join(dir, name), Err: syscall.ENOSPC}
		}
		n--
		return writeAtomic(dir, name, data)
	}
}

// TestRecorderFullDiskKeepsAGapFreePrefixAndCounts: after the first
// failed write nothing more is written, even when space comes back, and
// every event that should have been is counted.
func TestRecorderFullDiskKeepsAGapFreePrefixAndCounts(t *testing.T) {
	dir := t.TempDir()
	var raws [][]byte
	for i := range 10 {
		raws = append(raws, messageEvent(eventID(i), fmt.Sprint("m", i)))
	}
	events := testevents.Decode(t, raws...)
	rec, err := OpenRecorder(context.Background(), dir, RecorderOptions{WriteFile: fullDisk(4)})
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	for _, ev := range events {
		if err := rec.Record(ev); err != nil {
			errs = append(errs, err)
		}
	}
	rec.Record(events[2]) // already written: not a missed event
	missed, ferr := rec.Failure()
	if len(errs) != 1 || !errors.Is(errs[0], syscall.ENOSPC) || !errors.Is(ferr, syscall.ENOSPC) {
		t.Fatalf("errors %v, failure %v: want one ENOSPC", errs, ferr)
	}
	if missed != 6 {
		t.Errorf("missed %d, want 6", missed)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	conv := mustLoad(t, dir)
	sameRaws(t, rawsOf(conv.Events), raws[:4])
	if len(conv.Warnings) != 0 {
		t.Errorf("warnings: %q", conv.Warnings)
	}
}

// TestRecorderRemovesTemporariesOfAKilledRecorder: a recorder killed in
// the middle of a write leaves a temporary file; the next one removes it.
func TestRecorderRemovesTemporariesOfAKilledRecorder(t *testing.T) {
	dir := t.TempDir()
	recordAll(t, dir, "", testevents.Decode(t, messageEvent(eventID(1), "m")))
	stale := []string{
		filepath.Join(dir, "events", ".event-00001-"+eventID(2)+".json.123.tmp"),
		filepath.Join(dir, ".base_state.json.456.tmp"),
	}
	for _, p := range stale {
		if err := os.WriteFile(p, []byte(`{"kind":`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := NewRecorder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	for _, p := range stale {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there (%v)", filepath.Base(p), err)
		}
	}
	if rec.Len() != 1 {
		t.Errorf("continues at %d, want 1", rec.Len())
	}
}

// TestRecorderRefusesAStreamThatDoesNotContinueIt: when neither side's
// conversation id is known, a stream that resumes a recording must start
// with an event the recording holds (every source streams from the first
// event); another conversation's stream writes nothing and says why.
func TestRecorderRefusesAStreamThatDoesNotContinueIt(t *testing.T) {
	dir := t.TempDir()
	recordAll(t, dir, "", testevents.Decode(t, messageEvent(eventID(1), "one"), messageEvent(eventID(2), "two")))
	rec, err := NewRecorder(dir)
	if err != nil {
		t.Fatal(err)
	}
	other := testevents.Decode(t, messageEvent(eventID(50), "another conversation"), messageEvent(eventID(51), "its second event"))
	if err := rec.Record(other[0]); !errors.Is(err, ErrOtherConversation) {
		t.Fatalf("Record = %v, want ErrOtherConversation", err)
	}
	rec.Record(other[1])
	if missed, _ := rec.Failure(); missed != 2 {
		t.Errorf("missed %d, want 2", missed)
	}
	rec.Close()
	if n := eventFileCount(t, dir); n != 2 {
		t.Fatalf("%d event files, want the 2 of the first conversation", n)
	}
}

// TestRecorderOpenIsInterruptible: reading a recording's ids stops when
// ctx ends, and the recorder is not opened with a partial set (it would
// write events twice); the lock is released.
func TestRecorderOpenIsInterruptible(t *testing.T) {
	dir := t.TempDir()
	recordAll(t, dir, "", testevents.Decode(t, messageEvent(eventID(1), "m")))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := OpenRecorder(ctx, dir, RecorderOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("OpenRecorder = %v, want context.Canceled", err)
	}
	rec, err := NewRecorder(dir)
	if err != nil {
		t.Fatalf("the lock was kept: %v", err)
	}
	rec.Close()
}
