//go:build unix

package files

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within runs f and fails the test if it has not returned in a few
// seconds: before the fix, opening a FIFO blocked for ever.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%s blocked on a FIFO", what)
	}
}

// mkfifo makes a named pipe that nothing ever writes to.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// TestFIFOsAreSkippedNotOpened puts a FIFO where an event file, the base
// state, meta.json and events/ itself are expected: each is reported as
// "not a regular file" naming it, never waited on, and every readable
// event still loads — through Load, List and Follow's reader.
func TestFIFOsAreSkippedNotOpened(t *testing.T) {
	dir := t.TempDir()
	events := filepath.Join(dir, "events")
	writeEvent(t, events, 0, eventID(0), messageEvent(eventID(0), "before"))
	fifo := "event-00001-" + eventID(1) + ".json"
	mkfifo(t, filepath.Join(events, fifo))
	writeEvent(t, events, 2, eventID(2), messageEvent(eventID(2), "after"))
	mkfifo(t, filepath.Join(dir, "base_state.json"))

	within(t, "Load", func() {
		conv, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(conv.Events) != 2 {
			t.Errorf("%d events, want the 2 readable ones; warnings %q", len(conv.Events), conv.Warnings)
		}
		hasWarning(t, conv.Warnings, "events/"+fifo, "not a regular file (named pipe)")
		hasWarning(t, conv.Warnings, "base_state.json", "not a regular file (named pipe)")
	})
	within(t, "List", func() {
		list, err := List(filepath.Dir(dir))
		if err != nil || len(list) != 1 || list[0].Events != 3 {
			t.Fatalf("List = %+v, %v", list, err)
		}
		hasWarning(t, list[0].Warnings, "base_state.json", "not a regular file")
	})
	within(t, "readFile", func() {
		if _, err := readFile(filepath.Join(events, fifo), nil); err == nil || !strings.Contains(err.Error(), "not a regular file (named pipe)") {
			t.Errorf("readFile of a FIFO: %v", err)
		}
	})
}

// TestFIFOAsThePathOrEventsDir: a FIFO given as the recording, or standing
// where events/ should be, is an error at once.
func TestFIFOAsThePathOrEventsDir(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "conv.jsonl")
	mkfifo(t, path)
	within(t, "Open of a FIFO", func() {
		if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "not a regular file (named pipe)") {
			t.Errorf("Open: %v", err)
		}
	})
	conv := filepath.Join(dir, "conv")
	mkfifo(t, filepath.Join(conv, "events"))
	if err := os.WriteFile(filepath.Join(conv, "meta.json"), []byte(`{"title":"t"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	within(t, "Open of a FIFO events/", func() {
		if _, err := Open(conv); err == nil || !strings.Contains(err.Error(), "not a directory") {
			t.Errorf("Open: %v", err)
		}
	})
	within(t, "List of a FIFO root", func() {
		if _, err := List(path); err == nil {
			t.Error("listed a FIFO")
		}
	})
}

// TestLoadContextIsInterruptible: a cancelled load returns at once with
// the context's error.
func TestLoadContextIsInterruptible(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	events := filepath.Join(dir, "events")
	for i := range 3000 {
		writeEvent(t, events, i, eventID(i), messageEvent(eventID(i), "x"))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	conv, err := LoadContext(ctx, dir)
	if err == nil || conv == nil || len(conv.Events) == 3000 {
		t.Fatalf("cancelled load: err %v, %d events", err, len(conv.Events))
	}
	if _, err := ListContext(ctx, filepath.Dir(dir)); err == nil {
		t.Error("cancelled List returned no error")
	}
	if conv, err := LoadContext(context.Background(), dir); err != nil || len(conv.Events) != 3000 {
		t.Fatalf("load: %v", err)
	}
}
