package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/client/files"
	"ohwatch/gen"
	"ohwatch/internal/fixtures"
	"ohwatch/internal/upstream"
	"ohwatch/model"
)

// everyRecording returns the project's own recordings, every upstream
// recording where ../shared is, and a generated one: the sources the
// headless output is checked over.
func everyRecording(t *testing.T) []string {
	t.Helper()
	var paths []string
	for _, name := range append([]string{fixtures.Situations, fixtures.SDK}, fixtures.Shapes...) {
		paths = append(paths, fixtures.Path(t, name))
	}
	if upstream.Present(t) {
		paths = append(paths, upstream.Trajectories(t)...)
	}
	dir := filepath.Join(t.TempDir(), "generated")
	if err := gen.WriteDir(dir, gen.Options{Events: 400, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	return append(paths, dir)
}

// eventLinesOf returns the events a headless output printed: the kinds of
// its "  .. Kind" text lines, or the ids of its "event" JSON lines.
func eventLinesOf(t *testing.T, out string, asJSON bool) []string {
	t.Helper()
	var got []string
	for _, line := range strings.Split(out, "\n") {
		if asJSON {
			if line == "" {
				continue
			}
			var v struct{ Type, ID string }
			if err := json.Unmarshal([]byte(line), &v); err != nil {
				t.Fatalf("invalid JSONL line %q: %v", line, err)
			}
			if v.Type == "event" {
				got = append(got, v.ID)
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "  .. "); ok {
			got = append(got, strings.Fields(rest)[0])
		}
	}
	return got
}

// wantLines is what eventLinesOf must return for these events.
func wantLines(evs []model.Event, asJSON bool) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.Kind
		if asJSON {
			out[i] = ev.ID
		}
	}
	return out
}

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") == strings.Join(want, "\n") {
		return
	}
	t.Errorf("%s: %d event lines, want exactly the %d events in order", what, len(got), len(want))
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			t.Errorf("  first difference at line %d: got %q, want %q", i, g, w)
			return
		}
	}
}

// TestHeadlessPrintsEveryEventOnce replays every recording headless, in
// text and JSONL: the event lines are exactly the recording's events, in
// order, once each — an event that changes the status is printed, with
// its status line after it, not replaced by it.
func TestHeadlessPrintsEveryEventOnce(t *testing.T) {
	for _, path := range everyRecording(t) {
		conv, err := files.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, asJSON := range []bool{false, true} {
			name := filepath.Base(path) + map[bool]string{false: "/text", true: "/jsonl"}[asJSON]
			t.Run(name, func(t *testing.T) {
				args := []string{"replay", path, "--headless"}
				if asJSON {
					args = append(args, "--json")
				}
				_, out, errs := runCmd(t, nil, args...)
				sameLines(t, "replay "+errs, eventLinesOf(t, out, asJSON), wantLines(conv.Events, asJSON))
			})
		}
	}
}

// TestWatchOfServePrintsEveryEventOnce serves every recording on loopback
// and watches it headless. In JSONL the event lines are exactly the events
// the watch received, in order, once each: those its --record directory
// kept, plus the live-only full_state snapshots a recording never keeps;
// every event of the recording is among them, in order. The text lines name
// the same events as the JSONL ones.
func TestWatchOfServePrintsEveryEventOnce(t *testing.T) {
	for _, path := range everyRecording(t) {
		conv, err := files.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			var jsonKinds []string
			for _, asJSON := range []bool{true, false} {
				out, rec := watchServed(t, conv, asJSON)
				if !asJSON {
					sameLines(t, "text watch", eventLinesOf(t, out, false), jsonKinds)
					continue
				}
				var kept []string
				for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
					var v struct {
						Type, ID, Kind string
						Event          struct{ Key string }
					}
					if err := json.Unmarshal([]byte(line), &v); err != nil {
						t.Fatalf("invalid JSONL line %q: %v", line, err)
					}
					if v.Type != "event" {
						continue
					}
					jsonKinds = append(jsonKinds, v.Kind)
					if v.Event.Key != "full_state" {
						kept = append(kept, v.ID)
					}
				}
				sameLines(t, "JSONL watch (without snapshots)", kept, wantLines(rec, true))
				if !inOrder(rec, conv.Events) {
					t.Errorf("the watch did not receive every recorded event in order")
				}
			}
		})
	}
}

// watchServed serves conv on loopback and runs `ohwatch watch --headless`
// on it, recording what arrives; it returns the output and the recorded
// events.
func watchServed(t *testing.T, conv *files.Conversation, asJSON bool) (string, []model.Event) {
	t.Helper()
	id := "2a6f2ccc343c43749a75342cea50f197"
	url := serveOne(t, id, conv)
	rec := filepath.Join(t.TempDir(), "rec")
	args := []string{"watch", url, "--conversation", id, "--headless", "--record", rec, "--watch-timeout", "20s"}
	if asJSON {
		args = append(args, "--json")
	}
	code, out, errs := runCmd(t, nil, args...)
	got, err := files.Load(rec)
	if err != nil {
		t.Fatalf("exit %d, recording: %v\n%s", code, err, errs)
	}
	return out, got.Events
}

// inOrder reports whether every event of want is in got, in the same order
// (got may hold more: the server's own status updates).
func inOrder(got, want []model.Event) bool {
	k := 0
	for _, ev := range got {
		if k < len(want) && ev.ID == want[k].ID {
			k++
		}
	}
	return k == len(want)
}
