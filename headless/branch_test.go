package headless

import (
	"encoding/json"
	"strings"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
)

// branched is a generated conversation navigated back twice, its events in
// batches of 97, and its log.
func branched(t *testing.T) ([][]model.Event, *reducer.Log) {
	t.Helper()
	var raws [][]byte
	for raw := range gen.Events(gen.Options{Events: 1200, Seed: 8, Branches: 2}) {
		raws = append(raws, raw)
	}
	evs := testevents.Decode(t, raws...)
	var batches [][]model.Event
	for k := 0; k < len(evs); k += 97 {
		batches = append(batches, evs[k:min(k+97, len(evs))])
	}
	log := reducer.NewLog(nil, 0)
	log.Append(evs...)
	if len(log.BranchPoints()) != 2 {
		t.Fatalf("branch points %v", log.BranchPoints())
	}
	return batches, log
}

// printedIDs are the ids of the event lines of a JSON run.
func printedIDs(t *testing.T, out string) []string {
	t.Helper()
	var ids []string
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var l struct{ Type, ID string }
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l.Type == "event" {
			ids = append(ids, l.ID)
		}
	}
	return ids
}

func TestRecordingLinesFollowHeadOrTheBranch(t *testing.T) {
	batches, log := branched(t)
	var abandoned reducer.Branch
	for _, b := range log.Branches(log.BranchPoints()[0]) {
		if !b.Head {
			abandoned = b
		}
	}
	for _, tt := range []struct {
		branch string
		path   reducer.Path
	}{
		{"", log.HeadPath()},
		{log.Event(abandoned.First).ID, log.Path(abandoned.Tip)},
	} {
		r, out := run(t, feedOf(true, batches...), Options{JSON: true, Recording: true, Branch: tt.branch})
		ids := printedIDs(t, out)
		if len(ids) != tt.path.Len() {
			t.Fatalf("branch %q: %d event lines for a path of %d", tt.branch, len(ids), tt.path.Len())
		}
		for k, id := range ids {
			if id != log.Event(tt.path.At(k)).ID {
				t.Fatalf("branch %q: line %d is %s, not the path's event %d", tt.branch, k, id, tt.path.At(k))
			}
		}
		want := log.At(tt.path.Tip()).Status
		if r.Status != want && !(tt.branch != "" && r.Exit == ExitNoTerminal) {
			t.Fatalf("branch %q: result %+v, the path ends %s", tt.branch, r, want)
		}
	}
}

func TestLiveLinesSayWhereHeadWentBack(t *testing.T) {
	batches, log := branched(t)
	_, out := run(t, feedOf(true, batches...), Options{})
	for _, bp := range log.BranchPoints() {
		if !strings.Contains(out, "-- HEAD was moved back to event #"+itoa(bp+1)+" ("+log.Event(bp).ID+")") {
			t.Fatalf("no line for the move back to %d:\n%s", bp, out)
		}
	}
	// Every event is printed, as it arrived.
	_, js := run(t, feedOf(true, batches...), Options{JSON: true})
	if ids := printedIDs(t, js); len(ids) != log.Len() || ids[len(ids)-1] != log.Event(log.Len()-1).ID {
		t.Fatalf("%d event lines for %d events", len(ids), log.Len())
	}
	if n := strings.Count(js, `"type":"branch"`); n != 2 {
		t.Fatalf("%d branch lines in JSON", n)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
