package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ohwatch/client/files"
	"ohwatch/client/fleetsource"
	"ohwatch/fleet"
	"ohwatch/reducer"
)

// forkedRoot generates a conversations root: a conversation navigated back
// twice and two forks of it. It returns the root and the conversations'
// ids, the source's first.
func forkedRoot(t *testing.T) (string, []string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "root")
	code, out, errs := runCmd(t, nil, "gen", root, "--events", "1200", "--seed", "9", "--branches", "2", "--forks", "2")
	if code != 0 {
		t.Fatalf("gen: %d %s", code, errs)
	}
	var ids []string
	for _, line := range strings.Split(out, "\n")[1:] {
		if f := strings.Fields(line); len(f) > 0 {
			ids = append(ids, f[0])
		}
	}
	if len(ids) != 3 {
		t.Fatalf("gen said:\n%s", out)
	}
	return root, ids
}

// loadDirLog reads a conversation directory into a log.
func loadDirLog(t *testing.T, dir string) (*files.Conversation, *reducer.Log) {
	t.Helper()
	conv, err := files.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(conv.Warnings) > 0 {
		t.Fatalf("%s: %v", dir, conv.Warnings)
	}
	log := reducer.NewLog(conv.Base, conv.EventFiles)
	log.Append(conv.Events...)
	return conv, log
}

// TestGeneratedForksLoad: each fork loads without a warning, names its
// source and the event it was forked at, and its fold at the fork point is
// the source's fold there, but for what upstream resets: the metrics
// (reset_metrics) and the status (state updates are not on a branch, so
// none is copied). Its first own event starts its own metrics from zero.
func TestGeneratedForksLoad(t *testing.T) {
	root, ids := forkedRoot(t)
	_, src := loadDirLog(t, filepath.Join(root, ids[0]))
	if len(src.BranchPoints()) != 2 {
		t.Fatalf("the source has branch points %v, want 2", src.BranchPoints())
	}
	for _, id := range ids[1:] {
		conv, fork := loadDirLog(t, filepath.Join(root, id))
		if conv.ParentID != ids[0] || conv.ForkedFromEvent == "" {
			t.Fatalf("fork %s: parent %q, forked at %q", id, conv.ParentID, conv.ForkedFromEvent)
		}
		at, ok := src.IndexOf(conv.ForkedFromEvent)
		if !ok {
			t.Fatalf("fork %s: forked at %s, not an event of the source", id, conv.ForkedFromEvent)
		}
		point, ok := fork.IndexOf(conv.ForkedFromEvent)
		if !ok || !fork.Linear() {
			t.Fatalf("fork %s: does not hold the fork point (%v) or is not linear", id, ok)
		}
		want, got := src.At(at), fork.At(point)
		if got.Applied != point+1 {
			t.Fatalf("fork %s: %d events folded at the fork point, want %d", id, got.Applied, point+1)
		}
		if got.Iteration != want.Iteration || got.Steps != want.Steps || got.ErrorCount != want.ErrorCount ||
			!slices.Equal(got.Tasks.Items, want.Tasks.Items) || len(got.Pending) != len(want.Pending) ||
			got.ConfirmationPolicy != want.ConfirmationPolicy {
			t.Fatalf("fork %s at the fork point:\n got  it %d steps %d errors %d tasks %v pending %d policy %q\n want it %d steps %d errors %d tasks %v pending %d policy %q", id,
				got.Iteration, got.Steps, got.ErrorCount, got.Tasks.Items, len(got.Pending), got.ConfirmationPolicy,
				want.Iteration, want.Steps, want.ErrorCount, want.Tasks.Items, len(want.Pending), want.ConfirmationPolicy)
		}
		if want.Metrics.Combined.LLMCalls == 0 {
			t.Fatalf("the source made no LLM call before event %d: the test shows nothing", at)
		}
		if got.Metrics.Combined.LLMCalls != 0 || got.Metrics.Combined.CostUSD != 0 {
			t.Fatalf("fork %s: metrics at the fork point %+v, want reset", id, got.Metrics.Combined)
		}
		first := fork.At(point + 1)
		if ev := fork.Event(point + 1); ev.ParentID != conv.ForkedFromEvent || ev.Kind != "MessageEvent" {
			t.Fatalf("fork %s: first own event %s with parent %s", id, ev.Kind, ev.ParentID)
		}
		if first.Metrics.Combined.LLMCalls != 0 || len(first.Tasks.Items) != len(want.Tasks.Items) {
			t.Fatalf("fork %s: first own event's fold %+v", id, first.Metrics.Combined)
		}
		if fork.Latest().Metrics.Combined.LLMCalls == 0 {
			t.Fatalf("fork %s: no LLM call of its own", id)
		}
	}
}

// TestGeneratedForksListUnderParent: `ls` and `ls --json` on the root show
// each fork under the conversation it came from, and so does the fleet
// table read from the root.
func TestGeneratedForksListUnderParent(t *testing.T) {
	root, ids := forkedRoot(t)
	code, out, errs := runCmd(t, nil, "ls", root)
	if code != 0 {
		t.Fatalf("ls: %d %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[1], ids[0]) {
		t.Fatalf("ls:\n%s", out)
	}
	for _, l := range lines[2:] {
		if !strings.Contains(l, "└ ") || !(strings.HasPrefix(l, ids[1]) || strings.HasPrefix(l, ids[2])) {
			t.Fatalf("a fork is not listed under its source:\n%s", out)
		}
	}
	code, out, _ = runCmd(t, nil, "ls", root, "--json")
	var rows []listing
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil {
		t.Fatalf("ls --json: %d %v", code, err)
	}
	forks := 0
	for _, r := range rows {
		if r.ParentID == ids[0] && r.ForkedFromEvent != "" {
			forks++
		}
	}
	if forks != 2 {
		t.Fatalf("ls --json names %d forks of %s: %+v", forks, ids[0], rows)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := fleet.New()
	listed := map[string]bool{}
	for ups := range fleetsource.Watch(ctx, []fleetsource.Source{fleetsource.Local(root, fleetsource.LocalOptions{})}, fleetsource.Options{}) {
		f.Apply(ups)
		for _, u := range ups {
			if u.Meta != nil {
				listed[u.Ref.ID] = true
			}
		}
		if len(listed) == 3 {
			break
		}
	}
	var got []fleet.Row
	for _, g := range f.Rows(fleet.Query{}) {
		got = append(got, g.Rows...)
	}
	if len(got) != 3 || got[0].Ref.ID != ids[0] || got[0].Depth != 0 || got[1].Depth != 1 || got[2].Depth != 1 ||
		got[1].ParentID != ids[0] || got[2].ParentID != ids[0] {
		for _, r := range got {
			t.Logf("%s depth %d parent %s", r.Ref.ID, r.Depth, r.ParentID)
		}
		t.Fatal("the fleet does not list the forks under their source")
	}
}
