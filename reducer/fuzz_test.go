package reducer

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/internal/upstream"
	"ohwatch/model"
)

// seedEventLimit is the largest recorded event FuzzApply takes as a seed.
const seedEventLimit = 4 << 10

// FuzzApply folds arbitrary event sequences (one JSON object per line,
// decoded by model.Decode) over an arbitrary base state: Apply must never
// panic, and the log's At(k) must equal the fold of the first k+1 events.
func FuzzApply(f *testing.F) {
	var bases [][]byte
	present := upstream.Present(f)
	if present {
		names, _ := filepath.Glob(filepath.Join(upstream.Dir(f), "base_state", "*.json"))
		for _, name := range names {
			if raw, err := os.ReadFile(name); err == nil {
				bases = append(bases, raw)
			}
		}
	}
	bases = append(bases, nil, gen.BaseState(gen.Options{Events: 40, Seed: 2}))
	// The recordings and the generated log seed the event sequences
	// without their large events (the system prompt, long outputs): with
	// seeds of tens of kilobytes, minimizing each new input takes the
	// whole of a short run, and the decoder's own fuzz target covers big
	// events.
	var dirs []string
	if present {
		dirs = upstream.Trajectories(f)
	}
	for _, dir := range dirs {
		var lines [][]byte
		for _, raw := range upstream.EventFiles(f, dir) {
			if len(raw) <= seedEventLimit {
				lines = append(lines, bytes.ReplaceAll(raw, []byte("\n"), nil))
			}
		}
		f.Add([]byte(nil), bytes.Join(lines, []byte("\n")))
	}
	var genLines [][]byte
	for raw := range gen.Events(gen.Options{Events: 40, Seed: 2}) {
		if len(raw) <= seedEventLimit {
			genLines = append(genLines, raw)
		}
	}
	for _, b := range bases {
		f.Add(b, bytes.Join(genLines, []byte("\n")))
	}
	f.Add([]byte(`{"execution_status":"finished","leaf_event_id":"a"}`),
		[]byte(`{"kind":"MessageEvent","id":"a","source":"user","llm_message":{"role":"user","content":[]}}`+"\n"+
			`{"kind":"ConversationStateUpdateEvent","id":"b","key":"full_state","value":{"execution_status":"running"}}`+"\n"+
			`{"kind":"Mystery","id":"a"}`+"\n"+`[1,2]`+"\n"+`{"kind":"ACPToolCallEvent","id":"c","tool_call_id":"t","is_error":true}`))

	f.Fuzz(func(t *testing.T, baseRaw, stream []byte) {
		var base *model.BaseState
		if len(baseRaw) > 0 {
			if b, err := model.DecodeBaseState(baseRaw); err == nil {
				base = b
			}
		}
		var evs []model.Event
		for _, line := range bytes.Split(stream, []byte("\n")) {
			ev, err := model.Decode(slices.Clone(line))
			if err != nil {
				continue
			}
			evs = append(evs, ev)
		}
		count := len(evs) / 2
		log := newLogEvery(base, count, 2)
		log.Append(evs...)
		if navigatesBack(evs) {
			// A mutated stream can name an earlier event as the parent of
			// a later one, as a navigation does: a tree, folded by path.
			checkEveryPath(t, log, base, count)
		} else {
			checkEveryPrefix(t, log, base, count)
		}
		s := log.Latest()
		_ = s.Transitions()
		_ = s.Errors()
		_ = s.Kinds()
		_ = s.UnknownKinds()
		_ = s.ACPCalls()
		_ = s.HistoryLen()
		for i := -1; i <= log.Len(); i++ {
			_ = log.Diff(i)
			_ = log.Provenance(i)
		}
		_ = log.Marks().All()
	})
}

// TestNavigatesBackTellsLinesFromTrees: FuzzApply holds a stream to the
// strict checks of a line unless HEAD moved back in it, so the test that
// tells them apart must not call a line a tree.
func TestNavigatesBackTellsLinesFromTrees(t *testing.T) {
	t.Parallel()
	if navigatesBack(testevents.Generated(t, 3000, 2)) {
		t.Fatal("a generated line reads as navigating back")
	}
	if !navigatesBack(testevents.GeneratedWith(t, gen.Options{Events: 3000, Seed: 2, Branches: 3})) {
		t.Fatal("a conversation navigated back three times reads as a line")
	}
}
