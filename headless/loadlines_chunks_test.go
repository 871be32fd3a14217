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
// as they were taken, from memory and from the spill.
func TestLoadLinesChunks(t *testing.T) {
	for _, from := range []int{spillFrom, 1, 0} {
		l := newLoadLines(reducer.State{})
		l.spillFrom = from
		n := factChunk*2 + 5
		want := make([]model.Event, n)
		for i := range want {
			want[i] = model.Event{ID: "e" + strconv.Itoa(i), Kind: "MessageEvent", Source: "agent",
				Summary: strings.Repeat(string(rune('a'+i%26)), 100+i%997)}
			if i%5 == 0 {
				want[i].Body = &model.Action{SecurityRisk: "HIGH"}
			}
			l.add(l.factOf(&want[i]))
		}
		if len(l.text) < 2 {
			t.Fatalf("%d text chunks: the test crosses none", len(l.text))
		}
		if !l.usable(n) {
			t.Fatal("not usable")
		}
		spilled := 0
		for _, at := range append(l.factsAt, l.textAt...) {
			if at >= 0 {
				spilled++
			}
		}
		if spilled == 0 || from < 2 && l.factsAt[from] < 0 || l.factsAt[len(l.factsAt)-1] >= 0 {
			t.Fatalf("spill from chunk %d: %d chunks spilled, facts at %v", from, spilled, l.factsAt)
		}
		for i := range want {
			got, ok := l.event(i, reducer.Head{ID: want[i].ID, Kind: want[i].Kind})
			if !ok || got.ID != want[i].ID || got.Summary != want[i].Summary || got.Kind != "MessageEvent" {
				t.Fatalf("spill from %d, event %d: %v %q %q, want %q %q", from, i, ok, got.ID, got.Summary[:min(len(got.Summary), 10)], want[i].ID, want[i].Summary[:10])
			}
			if a, isAction := got.Body.(*model.Action); (i%5 == 0) != isAction || isAction && a.SecurityRisk != "HIGH" {
				t.Fatalf("spill from %d, event %d: body %#v", from, i, got.Body)
			}
		}
		for k, c := range l.text {
			if len(c) > textChunk {
				t.Fatalf("text chunk %d of %d bytes", k, len(c))
			}
		}
		l.close()
	}
}
