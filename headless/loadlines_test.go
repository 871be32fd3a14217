package headless

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
)

// TestRecordingLinesFromTheLoadAreTheWalks prints recordings both ways,
// from what was taken as they were read and from a walk of the log, text
// and JSON, and wants the same bytes: the fixtures (confirmations, HIGH
// risk, errors, snapshots) and a generated conversation come from the
// load; a branched conversation and one with a repeated id are walked.
func TestRecordingLinesFromTheLoadAreTheWalks(t *testing.T) {
	repeated := testevents.Generated(t, 300, 9)
	repeated = append(repeated, repeated[100])
	cases := []struct {
		name     string
		evs      []model.Event
		fromLoad bool
	}{
		{"situations", testevents.Recorded(t, filepath.Join("..", "testdata", "situations")), true},
		{"sdk", testevents.Recorded(t, filepath.Join("..", "testdata", "sdk")), true},
		{"generated", testevents.Generated(t, 3000, 5), true},
		{"branched", testevents.GeneratedWith(t, gen.Options{Events: 3000, Seed: 6, Branches: 3}), false},
		{"a repeated id", repeated, false},
	}
	for _, c := range cases {
		for _, asJSON := range []bool{false, true} {
			walked, _ := printRecorded(t, c.evs, asJSON, false)
			loaded, w := printRecorded(t, c.evs, asJSON, true)
			if loaded != walked {
				t.Fatalf("%s (json %v): the lines from the load differ from the walk's%s", c.name, asJSON, firstLineDiff(walked, loaded))
			}
			if w.lines.printed != c.fromLoad {
				t.Errorf("%s (json %v): printed from the load %v, want %v", c.name, asJSON, w.lines.printed, c.fromLoad)
			}
		}
	}
}

// TestRecordingLinesFromASpillAreTheWalks: the lines of a recording
// whose facts were spilled (spill.go) as it was read are the walk's, text
// and JSON. (Its summaries fill less than a chunk of text:
// TestLoadLinesChunks reads text back from a spill.)
func TestRecordingLinesFromASpillAreTheWalks(t *testing.T) {
	evs := testevents.Generated(t, factChunk+9000, 7)
	for _, asJSON := range []bool{false, true} {
		walked, _ := printRecorded(t, evs, asJSON, false)
		loaded, w := printRecordedSpilling(t, evs, asJSON, 0)
		if loaded != walked {
			t.Fatalf("json %v: the lines from the spill differ from the walk's%s", asJSON, firstLineDiff(walked, loaded))
		}
		if !w.lines.printed || w.lines.factsAt[0] < 0 {
			t.Fatalf("json %v: printed from the load %v, facts at %v: nothing read back from a spill",
				asJSON, w.lines.printed, w.lines.factsAt)
		}
	}
}

// printRecorded runs evs through a headless run as a recording, in
// batches of 97, the lines taken from the load or (fromLoad false) from a
// walk of the log.
func printRecorded(t *testing.T, evs []model.Event, asJSON, fromLoad bool) (string, *watcher) {
	t.Helper()
	if fromLoad {
		return printRecordedSpilling(t, evs, asJSON, spillFrom)
	}
	return printRecordedSpilling(t, evs, asJSON, -1)
}

// printRecordedSpilling is printRecorded with the lines taken from the
// load, spilled past chunk from (-1: walked).
func printRecordedSpilling(t *testing.T, evs []model.Event, asJSON bool, from int) (string, *watcher) {
	t.Helper()
	fromLoad := from >= 0
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	w := newWatcher(ctx, reducer.NewLog(nil, 0), Options{Recording: true, Out: &out, JSON: asJSON})
	if !fromLoad {
		w.lines = nil
	} else {
		w.lines.spillFrom = from
	}
	var batches [][]model.Event
	for len(evs) > 0 {
		n := min(len(evs), 97)
		batches = append(batches, evs[:n])
		evs = evs[n:]
	}
	w.runAll(ctx, feedOf(true, batches...))
	return out.String(), w
}

// firstLineDiff names the first line where got differs from want.
func firstLineDiff(want, got string) string {
	wl, gl := bytes.Split([]byte(want), []byte("\n")), bytes.Split([]byte(got), []byte("\n"))
	for i := range min(len(wl), len(gl)) {
		if !bytes.Equal(wl[i], gl[i]) {
			return "\nline " + itoa(i+1) + ":\nwant " + string(wl[i]) + "\ngot  " + string(gl[i])
		}
	}
	return "\n(one is longer)"
}

// TestLoadLinesGiveUpPastWhatTheyIndex: past 65,535 distinct names (a
// hostile recording's risks, say) a uint16 names no more, and the lines
// are left to the walk.
func TestLoadLinesGiveUpPastWhatTheyIndex(t *testing.T) {
	l := newLoadLines(reducer.State{})
	for k := range 1<<16 - 1 {
		l.name(itoa(k))
	}
	if l.off {
		t.Fatal("gave up at 65,535 names")
	}
	l.name("one more")
	if !l.off {
		t.Fatal("a 65,536th name was taken")
	}
}
