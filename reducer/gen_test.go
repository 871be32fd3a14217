package reducer

import (
	"math"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

func TestGeneratedEveryPrefixEqualsFold(t *testing.T) {
	t.Parallel()
	evs := testevents.Generated(t, 30000, 1)
	// A short checkpoint distance keeps 30k seeks fast; the default
	// distance is covered on a shorter prefix of the same log.
	log := newLogEvery(nil, 0, 4)
	log.Append(evs...)
	checkEveryPrefix(t, log, nil, 0)
	short := NewLog(nil, 0)
	short.Append(evs[:3*checkpointEvery+5]...)
	checkEveryPrefix(t, short, nil, 0)
	if d := diffState(log.Latest(), Fold(Initial(nil, 0), evs...), nil); d != "" {
		t.Fatalf("same events, different State: %s", d)
	}
	s := log.Latest()
	if s.Steps == 0 || s.Metrics.Combined.LLMCalls == 0 || len(s.Transitions()) == 0 || s.HistoryLen() >= s.Applied {
		t.Fatalf("a generated log derives little: steps %d calls %d transitions %d history %d",
			s.Steps, s.Metrics.Combined.LLMCalls, len(s.Transitions()), s.HistoryLen())
	}
}

// TestMetricsAttributionMatchesStatsUpdates strips the stats updates from
// a generated log and derives the metrics from its base_state.json alone:
// at every LLM step they must equal what the stats updates said.
func TestMetricsAttributionMatchesStatsUpdates(t *testing.T) {
	t.Parallel()
	const n = 3000
	opts := gen.Options{Events: n, Seed: 3}
	base, err := model.DecodeBaseState(gen.BaseState(opts))
	if err != nil {
		t.Fatal(err)
	}
	all := testevents.Generated(t, n, opts.Seed)
	var stripped []model.Event
	withStats := Initial(nil, 0)
	attributed := Initial(base, len(all))
	steps := 0
	for _, ev := range all {
		withStats = Apply(withStats, ev)
		if u, ok := ev.Body.(*model.StateUpdate); ok && u.Key == "stats" {
			continue
		}
		stripped = append(stripped, ev)
		attributed = Apply(attributed, ev)
		if attributed.MetricsAt != attributed.Applied-1 {
			continue
		}
		steps++
		a, w := attributed.Metrics.Combined, withStats.Metrics.Combined
		if a.LLMCalls != w.LLMCalls || a.Prompt != w.Prompt || a.Completion != w.Completion ||
			a.CacheRead != w.CacheRead || math.Abs(a.CostUSD-w.CostUSD) > 1e-9 {
			t.Fatalf("at %s %s: attributed %+v\nstats %+v", ev.Kind, ev.ID, a, w)
		}
	}
	if steps < 100 {
		t.Fatalf("only %d attributed steps", steps)
	}
	end := attributed.Metrics.Combined
	if end.LLMCalls != len(base.Stats.UsageToMetrics["agent"].TokenUsages)+len(base.Stats.UsageToMetrics["condenser"].TokenUsages) {
		t.Fatalf("calls at the end %d", end.LLMCalls)
	}
	// The log gives the same metrics at every cursor.
	log := newLogEvery(base, len(stripped), 16)
	log.Append(stripped...)
	checkEveryPrefix(t, log, base, len(stripped))
	// The base applies at the last event on disk, after the final
	// per-field status update that follows the leaf (state updates are
	// never HEAD), so the recording ends with a confirmed status.
	last := log.Len() - 1
	if s := log.At(last); s.StatusSource != SourceBaseState || s.Status != base.ExecutionStatus || s.StatusAt != last || !s.StatusConfirmed {
		t.Fatalf("status at the end %s/%s at %d confirmed=%v", s.Status, s.StatusSource, s.StatusAt, s.StatusConfirmed)
	}
}

// TestGeneratedBranchedFoldsThePath reads a conversation that was navigated
// back five times: the log finds the five branch points, HEAD is the last
// event, every State is the fold of its own path, and HEAD's state leaves
// out what the abandoned branches did.
func TestGeneratedBranchedFoldsThePath(t *testing.T) {
	t.Parallel()
	o := gen.Options{Events: 6000, Seed: 3, Branches: 5}
	var raws [][]byte
	for raw := range gen.Events(o) {
		raws = append(raws, raw)
	}
	evs := testevents.Decode(t, raws...)
	log := newLogEvery(nil, 0, 16)
	log.Append(evs...)
	checkTree(t, log, newRefTree(evs))
	if log.Linear() || len(log.BranchPoints()) != 5 || log.Head() != len(evs)-1 {
		t.Fatalf("linear %v, branch points %v, head %d", log.Linear(), log.BranchPoints(), log.Head())
	}
	head := log.HeadPath()
	if head.Len() >= len(evs) || log.Latest().Applied != head.Len() {
		t.Fatalf("HEAD's path has %d of %d events", head.Len(), len(evs))
	}
	for _, bp := range log.BranchPoints() {
		br := log.Branches(bp)
		if len(br) != 2 || br[0].Head || !br[1].Head {
			t.Fatalf("branches at %d: %+v", bp, br)
		}
		// HEAD goes back to the end of a step: no action is left waiting
		// for a result that stayed on the other branch.
		if p := log.At(bp).Pending; len(p) != 0 {
			t.Fatalf("%d actions pending at branch point %d", len(p), bp)
		}
	}
	// The whole recording folded as one line counts every step; HEAD's
	// path only the steps of the conversation that went on.
	flat := Fold(Initial(nil, 0), evs...)
	if s := log.Latest(); s.Steps >= flat.Steps || s.Status != flat.Status {
		t.Fatalf("HEAD: %d steps, %s; flat: %d steps, %s", s.Steps, s.Status, flat.Steps, flat.Status)
	}
	// With base_state.json, counted: the same HEAD, confirmed finished.
	base, err := model.DecodeBaseState(gen.BaseState(o))
	if err != nil {
		t.Fatal(err)
	}
	withBase := NewLog(base, len(evs))
	withBase.Append(evs...)
	if withBase.Head() != len(evs)-1 || withBase.Leaf() != log.Leaf() || !withBase.Latest().Verdict(true).Final() {
		t.Fatalf("with base: head %d leaf %d verdict %v", withBase.Head(), withBase.Leaf(), withBase.Latest().Verdict(true))
	}
}

// TestOnePassLogCheckpointsSparsely: a log read through once keeps a
// checkpoint every onePassEvery events, not every checkpointEvery (their
// States and what only they hold were a thirtieth of the JSON at the peak
// of a million-event `state`), and seeks to the same States.
func TestOnePassLogCheckpointsSparsely(t *testing.T) {
	t.Parallel()
	evs := testevents.Generated(t, 3*onePassEvery+5, 1)
	log := NewOnePassLog(nil, 0)
	log.Append(evs...)
	cks := 0
	for _, g := range log.segs {
		cks += len(g.ck)
	}
	if want := len(evs) / onePassEvery; cks != want {
		t.Fatalf("%d checkpoints for %d events, want %d (one every %d)", cks, len(evs), want, onePassEvery)
	}
	checkEveryPrefix(t, log, nil, 0)
}

// TestAppendEachHandsTheFoldedStates: AppendEach hands each added event's
// State, At's, and says which events follow the one before them: on a
// branched log, not those that start a branch.
func TestAppendEachHandsTheFoldedStates(t *testing.T) {
	t.Parallel()
	evs := testevents.GeneratedWith(t, gen.Options{Events: 600, Seed: 6, Branches: 2})
	evs = append(evs, evs[10]) // a duplicate: not added, not handed
	log := NewLog(nil, 0)
	var got []State
	var follow []bool
	branched := 0
	for k := 0; k < len(evs); k += 97 {
		log.AppendEach(func(j int, follows bool, s *State) {
			if j != len(got) {
				t.Fatalf("event %d handed after %d", j, len(got))
			}
			follow = append(follow, follows)
			if !follows {
				branched++
			}
			got = append(got, *s)
		}, evs[k:min(k+97, len(evs))]...)
	}
	if len(got) != log.Len() || branched == 0 {
		t.Fatalf("%d States handed for %d events, %d branches", len(got), log.Len(), branched)
	}
	for j, s := range got {
		if follow[j] != (log.Parent(j) == j-1) {
			t.Fatalf("event %d (parent %d): follows %v", j, log.Parent(j), follow[j])
		}
		if d := diffState(s, log.At(j), nil); d != "" {
			t.Fatalf("event %d: the State handed is not At's: %s", j, d)
		}
	}
}

// TestIDIndexSizedOnceForARecording: a log told how many events it will
// hold sizes its id index once, at 4/3 of them (not the next power of
// two, twice as much at a million events), and finds every id.
func TestIDIndexSizedOnceForARecording(t *testing.T) {
	t.Parallel()
	evs := testevents.Generated(t, 3000, 4)
	log := NewOnePassLog(nil, len(evs))
	for k := 0; k < len(evs); k += 97 {
		log.Append(evs[k:min(k+97, len(evs))]...)
	}
	if got, want := len(log.st.ids.slots), slotsFor(len(evs)); got != want {
		t.Fatalf("%d slots for %d events, want %d", got, len(evs), want)
	}
	for i, ev := range evs {
		if j, ok := log.IndexOf(ev.ID); ev.ID != "" && (!ok || j != i) {
			t.Fatalf("event %d (%s): found %d %v", i, ev.ID, j, ok)
		}
	}
	if _, ok := log.IndexOf("00000000-0000-4000-8000-000000000000"); ok {
		t.Fatal("found an id the log does not hold")
	}
}
