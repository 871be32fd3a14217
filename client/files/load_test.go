package files

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// TestLoadRealTrajectories loads every real recording, by its conversation
// directory and by its events/ directory: every file, in index order,
// bytes untouched, no warnings.
func TestLoadRealTrajectories(t *testing.T) {
	for _, dir := range fixtures.Recordings(t) {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			wantRaws, wantIDs := realEvents(t, dir)
			for _, path := range []string{dir, filepath.Join(dir, "events")} {
				conv := mustLoad(t, path)
				if len(conv.Warnings) != 0 {
					t.Errorf("%s: unexpected warnings: %q", path, conv.Warnings)
				}
				sameRaws(t, rawsOf(conv.Events), wantRaws)
				for i, ev := range conv.Events {
					if ev.ID != wantIDs[i] {
						t.Errorf("event %d: id %q, file name says %q", i, ev.ID, wantIDs[i])
					}
					if cap(ev.Raw) != len(ev.Raw) {
						t.Errorf("event %d: Raw has spare capacity shared with another event", i)
					}
					if ev.Kind == "" || ev.Time.IsZero() {
						t.Errorf("event %d: not decoded: kind %q time %v", i, ev.Kind, ev.Time)
					}
				}
				if conv.Title == "" {
					t.Errorf("%s: no title from the first user message", path)
				}
				if conv.Path != path {
					t.Errorf("Path = %q, want %q", conv.Path, path)
				}
			}
		})
	}
}

// TestLoadOrdersByNumericIndex checks that indices beyond five digits sort
// by number, not by name, and that non-event files are ignored.
func TestLoadOrdersByNumericIndex(t *testing.T) {
	dir := t.TempDir()
	events := filepath.Join(dir, "events")
	indices := []int{100000, 99999, 2, 100001, 0, 1}
	for _, i := range indices {
		writeEvent(t, events, i, eventID(i), messageEvent(eventID(i), fmt.Sprint("m", i)))
	}
	for _, junk := range []string{".eventlog.lock", ".event-00003-x.json.123.tmp", "notes.txt", "event-7-abcdefgh.json"} {
		if err := os.WriteFile(filepath.Join(events, junk), []byte("junk"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conv := mustLoad(t, dir)
	want := []int{0, 1, 2, 99999, 100000, 100001}
	if len(conv.Events) != len(want) {
		t.Fatalf("got %d events, want %d", len(conv.Events), len(want))
	}
	for i, n := range want {
		if conv.Events[i].ID != eventID(n) {
			t.Errorf("event %d is %s, want %s", i, conv.Events[i].ID, eventID(n))
		}
	}
	hasWarning(t, conv.Warnings, "events/: index gap: events 00003-99998 are missing", "event-99999-")
}

// TestLoadSeedLayout reads the older numbered layout
// (events/0001_user_message.json), ordered by number.
func TestLoadSeedLayout(t *testing.T) {
	raws, _ := realEvents(t, "simple_echo_hello_world")
	dir := t.TempDir()
	events := filepath.Join(dir, "events")
	if err := os.MkdirAll(events, 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{"0001_system_prompt.json", "0002_user_message.json", "0003_action.json", "0004_observation.json", "0010_agent_message.json"}
	for i, raw := range raws {
		if err := os.WriteFile(filepath.Join(events, names[i]), raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conv := mustLoad(t, dir)
	sameRaws(t, rawsOf(conv.Events), raws)
	if len(conv.Warnings) != 0 {
		t.Errorf("warnings: %q", conv.Warnings)
	}
}

// TestLoadBaseStateAndMeta takes the id from base_state.json (normalised),
// the title from meta.json, and the status from the base state.
func TestLoadBaseStateAndMeta(t *testing.T) {
	raws, ids := realEvents(t, "simple_echo_hello_world")
	dir := writeConversation(t, raws, ids)
	base, err := os.ReadFile(fixtures.Path(t, fixtures.BaseStateV1170))
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "base_state.json"), base)
	mustWrite(t, filepath.Join(dir, "meta.json"), []byte(`{"title":"Echo \u001b[31mtest","updated_at":"2026-01-27T04:00:00Z"}`))
	conv := mustLoad(t, dir)
	if conv.Base == nil {
		t.Fatalf("no base state; warnings %q", conv.Warnings)
	}
	want := model.NormalizeConversationID(conv.Base.ID)
	if conv.ID != want || len(conv.ID) != 32 {
		t.Errorf("ID = %q, want %q (32 hex)", conv.ID, want)
	}
	if conv.Title != sanitize.Line("Echo \x1b[31mtest") {
		t.Errorf("Title = %q: not meta.json's, sanitised", conv.Title)
	}
}

// TestStreamHandsOutOrderedChunks streams a directory of several runs:
// the first chunk carries the header before any event, progress grows to
// the total, and the chunks join into the whole conversation in order.
func TestStreamHandsOutOrderedChunks(t *testing.T) {
	t.Parallel()
	const n = 3000
	raws := make([][]byte, n)
	ids := make([]string, n)
	for i := range raws {
		ids[i] = eventID(i)
		raws[i] = messageEvent(ids[i], fmt.Sprint("message ", i))
	}
	dir := writeConversation(t, raws, ids)
	var chunks []Chunk
	var got [][]byte
	conv, err := Stream(context.Background(), dir, func(c Chunk) {
		chunks = append(chunks, c)
		got = append(got, rawsOf(c.Events)...)
	})
	if err != nil {
		t.Fatal(err)
	}
	sameRaws(t, got, raws)
	if chunks[0].Header == nil || len(chunks[0].Events) != 0 {
		t.Fatalf("first chunk: header %v, %d events; want the header alone", chunks[0].Header, len(chunks[0].Events))
	}
	if len(chunks) < 3 {
		t.Errorf("%d chunks: the load was not streamed", len(chunks))
	}
	var last Chunk
	for _, c := range chunks {
		if c.Done < last.Done || c.Loaded < last.Loaded || c.Total != n {
			t.Fatalf("progress went %d/%d → %d/%d", last.Done, last.Total, c.Done, c.Total)
		}
		last = c
	}
	if last.Done != n || last.Loaded != n {
		t.Errorf("final progress %d files, %d events; want %d", last.Done, last.Loaded, n)
	}
	if chunks[0].Header.Title != "message 0" {
		t.Errorf("header title %q: not probed from the first user message", chunks[0].Header.Title)
	}
	if conv.Events != nil || conv.Title != "message 0" {
		t.Errorf("returned conversation: %d events, title %q", len(conv.Events), conv.Title)
	}
	if chunks[0].Header.EventFiles != n {
		t.Errorf("header counts %d event files, want %d", chunks[0].Header.EventFiles, n)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Stream(context.Background(), func(Chunk) {}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Stream(context.Background(), func(Chunk) {}); err == nil {
		t.Error("a Reader streamed twice")
	}
}

// TestStreamStopsWhenCancelled cancels a load midway: Stream returns the
// context's error and hands out nothing after the chunk that cancelled,
// and what it handed out is a whole prefix of the conversation, with no
// hole. (How much the first chunk holds depends on how far the readers got
// before the consumer ran: on a loaded machine, at times all of it, so
// that is not what the test counts.)
func TestStreamStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	const n = 5000 // eight jobs of the loader's growing sizes
	raws := make([][]byte, n)
	ids := make([]string, n)
	for i := range raws {
		ids[i] = eventID(i)
		raws[i] = messageEvent(ids[i], "x")
	}
	dir := writeConversation(t, raws, ids)
	ctx, cancel := context.WithCancel(context.Background())
	loaded, afterCancel := 0, 0
	_, err := Stream(ctx, dir, func(c Chunk) {
		if ctx.Err() != nil {
			afterCancel++
		}
		for _, ev := range c.Events {
			if ev.ID != eventID(loaded) {
				t.Errorf("event %d is %s: a hole in the stream", loaded, ev.ID)
			}
			loaded++
		}
		if loaded > 0 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if afterCancel > 0 {
		t.Errorf("%d chunks were handed out after cancel (%d of %d events in all)", afterCancel, loaded, n)
	}
}

// mustWrite writes a file or fails the test.
func mustWrite(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
