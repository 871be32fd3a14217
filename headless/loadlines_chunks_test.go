package headless

import (
	"strconv"
	"strings"
	"testing"

	"ohwatch/model"
	"ohwatch/reducer"
)

// TestLoadLinesChunks: facts and texts taken across many chunks (a text
// that does not fit what is left of a chunk starts the next) read back
// as they were taken.
func TestLoadLinesChunks(t *testing.T) {
	l := newLoadLines(reducer.State{})
	n := factChunk*2 + 5
	want := make([]model.Event, n)
	for i := range want {
		want[i] = model.Event{ID: "e" + strconv.Itoa(i), Kind: "MessageEvent", Source: "agent",
			Summary: strings.Repeat(string(rune('a'+i%26)), 100+i%997)}
		l.add(l.factOf(&want[i]))
	}
	if len(l.text) < 2 {
		t.Fatalf("%d text chunks: the test crosses none", len(l.text))
	}
	if !l.usable(n) {
		t.Fatal("not usable")
	}
	for i := range want {
		got := l.event(i, reducer.Head{ID: want[i].ID, Kind: want[i].Kind})
		if got.ID != want[i].ID || got.Summary != want[i].Summary || got.Kind != "MessageEvent" {
			t.Fatalf("event %d: %q %q, want %q %q", i, got.ID, got.Summary[:min(len(got.Summary), 10)], want[i].ID, want[i].Summary[:10])
		}
	}
	for k, c := range l.text {
		if len(c) > textChunk {
			t.Fatalf("text chunk %d of %d bytes", k, len(c))
		}
	}
}
