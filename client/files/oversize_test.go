package files

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"ohwatch/gen"
)

// sparse writes a file that starts with head and is size bytes long, the
// rest a hole: gigabytes that take no disk.
func sparse(t *testing.T, path, head string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(head); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// loadNotWhole loads path, which holds an event of 80 MiB, and fails t
// when the load allocated enough to have read it whole.
func loadNotWhole(t *testing.T, path string) *Conversation {
	t.Helper()
	var conv *Conversation
	var err error
	n := allocated(func() { conv, err = LoadContext(context.Background(), path) })
	if err != nil {
		t.Fatal(err)
	}
	if n > 32<<20 {
		t.Errorf("allocated %d MiB to load it: the big event was read", n>>20)
	}
	return conv
}

// TestOversizeEventFileIsAPlaceholder: an event file of 80 MiB in an SDK
// directory is not read whole: its event is an UnreadableEvent named from
// its head, with a warning, and the events around it are read.
func TestOversizeEventFileIsAPlaceholder(t *testing.T) {
	dir := t.TempDir()
	if err := gen.WriteDir(dir, gen.Options{Events: 6, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	sparse(t, filepath.Join(dir, "events", "event-00006-0123456789abcdef.json"),
		`{"kind":"ObservationEvent","id":"huge-one","timestamp":"2026-01-01T00:00:00","source":"environment","observation":{"content":"`, 80<<20)
	conv := loadNotWhole(t, dir)
	last := conv.Events[len(conv.Events)-1]
	if len(conv.Events) != 7 || last.Kind != "UnreadableEvent" || last.ID != "unreadable-huge-one" {
		t.Fatalf("%d events, the last %s %s; want 7, the last a placeholder", len(conv.Events), last.Kind, last.ID)
	}
	if s := conv.WarningSummary(); !strings.Contains(s, "1 warning") || !strings.Contains(s, "80 MiB, over the 64 MiB limit") {
		t.Errorf("summary %q", s)
	}
}

// TestOversizeZipEntryIsAPlaceholder: a trajectory zip of a few hundred
// KB whose second event entry unpacks to 80 MiB is not read whole either:
// the same placeholder and warning as a directory's file.
func TestOversizeZipEntryIsAPlaceholder(t *testing.T) {
	small := messageEvent(eventID(0), "hello")
	huge := messageEvent(eventID(1), strings.Repeat("x", 80<<20))
	names := []string{"events/event-00000-" + eventID(0) + ".json", "events/event-00001-" + eventID(1) + ".json"}
	path := writeZip(t, "big.zip", map[string][]byte{names[0]: small, names[1]: huge}, names)
	huge = nil
	conv := loadNotWhole(t, path)
	if len(conv.Events) != 2 || conv.Events[1].Kind != "UnreadableEvent" || conv.Events[1].ID != "unreadable-"+eventID(1) {
		t.Fatalf("%d events, want 2, the second a placeholder", len(conv.Events))
	}
	if s := conv.WarningSummary(); !strings.Contains(s, "1 warning") || !strings.Contains(s, "over the 64 MiB limit") {
		t.Errorf("summary %q", s)
	}
}

// TestOversizeJSONLLineIsAPlaceholder: a line of 70 MiB (a hole, no
// newline in it) between two good lines is read past in bounded chunks
// and kept as a placeholder; the lines after it are read.
func TestOversizeJSONLLineIsAPlaceholder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.jsonl")
	good := `{"kind":"PauseEvent","id":"p1","timestamp":"2026-01-01T00:00:00","source":"user"}` + "\n"
	head := good + `{"kind":"MessageEvent","id":"big","source":"user","llm_message":{"content":"`
	sparse(t, path, head, 70<<20)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n" + strings.Replace(good, "p1", "p2", 1))
	f.Close()
	conv, err := LoadContext(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, ev := range conv.Events {
		ids = append(ids, ev.ID)
	}
	if strings.Join(ids, " ") != "p1 unreadable-big p2" {
		t.Fatalf("events %q, warnings %.300q", ids, conv.Warnings)
	}
	if len(conv.Warnings) != 1 || !strings.Contains(conv.Warnings[0], "c.jsonl:2: not read: a line of ") || !strings.Contains(conv.Warnings[0], "over the 64 MiB limit") {
		t.Errorf("warnings %q", conv.Warnings)
	}
}

// TestSparseFileLoadEndsWhenCancelled: a load of a 2 GB sparse file, one
// line with no newline, ends with the context's error once cancelled,
// without holding the file.
func TestSparseFileLoadEndsWhenCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sparse.jsonl")
	sparse(t, path, `{"kind":"`, 2<<30)
	ctx, cancel := context.WithCancel(context.Background())
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := r.Stream(ctx, func(Chunk) {})
		done <- err
	}()
	go func() { close(started); cancel() }()
	<-started
	if err := <-done; err == nil || ctx.Err() == nil {
		t.Fatalf("a cancelled load ended with %v", err)
	}
}

// TestNothingReadable: an empty file, a file of garbage, a file of one
// line too large to read and a directory whose only event is invalid are
// refused with the first reason; a file
// with one bad line among good ones is read, with one warning.
func TestNothingReadable(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := map[string]string{
		write("empty.jsonl", ""):                          "no event in",
		write("garbage.bin", "\x00\x01\xffgarbage\n\x7f"): "no event could be read from",
		filepath.Dir(filepath.Dir(write("sdk/events/event-00000-0123456789abcdef.json", `{"kind":`))): "no event could be read from",
	}
	huge := filepath.Join(tmp, "huge.jsonl")
	sparse(t, huge, "", 65<<20) // one line too large: a placeholder, not an event read
	bad[huge] = "no event could be read from"
	for path, want := range bad {
		conv, err := LoadContext(context.Background(), path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if err := conv.Unreadable(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
	mixed := write("mixed.jsonl", `{"kind":"PauseEvent","id":"a"}`+"\nnot json\n"+`{"kind":"PauseEvent","id":"b"}`+"\n")
	conv, err := LoadContext(context.Background(), mixed)
	if err != nil || conv.Unreadable() != nil || !strings.HasPrefix(conv.WarningSummary(), "1 warning reading ") {
		t.Errorf("mixed: %v %v %q", err, conv.Unreadable(), conv.WarningSummary())
	}
}
