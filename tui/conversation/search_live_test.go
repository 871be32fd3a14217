package conversation

import (
	"bytes"
	"strings"
	"testing"

	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// matchesOf lists the indices of log whose text contains query, the
// reference a search must agree with: a plain scan of the lower-cased
// text for a query without capitals, of the text itself otherwise.
func matchesOf(log *reducer.Log, query string) []int {
	fold := strings.ToLower(query) == query
	contains := func(hay []byte) bool {
		if fold {
			low := make([]byte, len(hay))
			for k, c := range hay {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				low[k] = c
			}
			hay = low
		}
		return bytes.Contains(hay, []byte(query))
	}
	var out []int
	for i := 0; i < log.Len(); i++ {
		ev := log.Event(i)
		if contains([]byte(ev.Summary)) || contains(ev.Raw) {
			out = append(out, i)
		}
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSearchCoversEventsThatArriveAfterIt(t *testing.T) {
	t.Parallel()
	evs := tuitest.GeneratedEvents(t, 6000, 4)
	log := reducer.NewLog(nil, 0)
	log.Append(evs[:100]...)
	m := liveModel(t, log, 160, 48, Options{Title: "live"})
	const query = "terminal"

	// A finished search, then a batch: the new events are searched in the
	// frame that brings them.
	cmd := m.startSearch(query, true, false)
	m = runSearch(t, m, cmd)
	before := len(m.search.matches)
	if before == 0 {
		t.Fatal("no match in the first events")
	}
	m, _ = send(m, BatchMsg{Batch: model.Batch{Events: evs[100:400]}})
	if !equalInts(m.search.matches, matchesOf(log, query)) || len(m.search.matches) <= before {
		t.Fatalf("after a batch: %d matches, want %d", len(m.search.matches), len(matchesOf(log, query)))
	}

	// A batch longer than a frame should search is searched as a command.
	m, cmd = send(m, BatchMsg{Batch: model.Batch{Events: evs[400 : 400+inlineScanMax+100]}})
	if !m.search.running {
		t.Fatal("a long batch was not handed to a search command")
	}
	m = runSearch(t, m, cmd)
	if m.search.running || !equalInts(m.search.matches, matchesOf(log, query)) {
		t.Fatalf("after a long batch: running %v, %d matches, want %d", m.search.running, len(m.search.matches), len(matchesOf(log, query)))
	}
}

func TestSearchCatchesUpWithEventsLoggedWhileItRan(t *testing.T) {
	t.Parallel()
	evs := tuitest.GeneratedEvents(t, 1000, 9)
	log := reducer.NewLog(nil, 0)
	log.Append(evs[:300]...)
	m := newModel(Options{Log: log, Feed: make(chan model.Batch), Title: "loading"}, 160, 48)
	cmd := m.startSearch("Read", true, false)
	// The search looks at the first 300 events; the next batch arrives
	// before its answer does.
	done := cmd()
	m, _ = send(m, BatchMsg{Batch: model.Batch{Events: evs[300:]}})
	if !m.search.running {
		t.Fatal("the search stopped running when a batch arrived")
	}
	m, _ = send(m, done)
	if want := matchesOf(log, "Read"); !equalInts(m.search.matches, want) {
		t.Fatalf("%d matches, want %d over the whole log", len(m.search.matches), len(want))
	}
	if m.search.matches[len(m.search.matches)-1] < 300 {
		t.Fatal("no match among the events that arrived during the search")
	}
}
