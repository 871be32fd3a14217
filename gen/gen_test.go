package gen

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"ohwatch/model"
)

// collect returns the events of o.
func collect(t *testing.T, o Options) [][]byte {
	t.Helper()
	var out [][]byte
	for ev := range Events(o) {
		out = append(out, ev)
	}
	if len(out) != o.Events {
		t.Fatalf("Events(%d) gave %d events", o.Events, len(out))
	}
	return out
}

func TestEventsExactCount(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 13, 50, 333, 1001} {
		evs := 0
		for range Events(Options{Events: n, Seed: int64(n)}) {
			evs++
		}
		if evs != n {
			t.Errorf("Events(%d) gave %d", n, evs)
		}
	}
}

func TestEventsStopWhenConsumerStops(t *testing.T) {
	n := 0
	for range Events(Options{Events: 1000, Seed: 3}) {
		n++
		if n == 10 {
			break
		}
	}
	if n != 10 {
		t.Fatalf("consumed %d", n)
	}
}

func TestDeterministic(t *testing.T) {
	var a, b, c bytes.Buffer
	for _, w := range []*bytes.Buffer{&a, &b} {
		if err := WriteJSONL(w, Options{Events: 800, Seed: 7}); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the same options gave different bytes")
	}
	if err := WriteJSONL(&c, Options{Events: 800, Seed: 8}); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Fatal("different seeds gave the same bytes")
	}
	if !bytes.Equal(BaseState(Options{Events: 800, Seed: 7}), BaseState(Options{Events: 800, Seed: 7})) {
		t.Fatal("BaseState is not deterministic")
	}
}

// TestEventsDecode checks every generated event against the project's
// decoder: no Unknown bodies, headers filled in.
func TestEventsDecode(t *testing.T) {
	for _, seed := range []int64{1, 2, 42} {
		for i, raw := range collect(t, Options{Events: 1200, Seed: seed}) {
			ev, err := model.Decode(raw)
			if err != nil {
				t.Fatalf("seed %d event %d: %v\n%s", seed, i, err, raw)
			}
			if reason, unknown := model.IsUnknown(ev); unknown {
				t.Fatalf("seed %d event %d (%s) decoded as unknown: %q\n%s", seed, i, ev.Kind, reason, raw)
			}
			if ev.ID == "" || ev.Time.IsZero() || ev.Source == "" {
				t.Fatalf("seed %d event %d: header missing: %+v", seed, i, ev)
			}
		}
	}
}

var (
	uuid4     = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	naiveTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?$`)
)

// TestUpstreamShape checks the encoding conventions of real recordings:
// compact JSON, `kind` last, uuid4 ids, naive microsecond timestamps that
// never go back, parent_id chaining and no nulls outside stats values.
func TestUpstreamShape(t *testing.T) {
	for _, branches := range []int{0, 4} {
		checkUpstreamShape(t, collect(t, Options{Events: 1500, Seed: 11, Branches: branches}))
	}
}

func checkUpstreamShape(t *testing.T, evs [][]byte) {
	t.Helper()
	ids := map[string]bool{}
	var prev time.Time
	for i, raw := range evs {
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			t.Fatalf("event %d is not JSON: %v", i, err)
		}
		if !bytes.Equal(compact.Bytes(), raw) {
			t.Fatalf("event %d is not compact", i)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		kind, _ := m["kind"].(string)
		if !bytes.HasSuffix(raw, []byte(`"kind":"`+kind+`"}`)) {
			t.Fatalf("event %d: kind is not the last field", i)
		}
		id, _ := m["id"].(string)
		if !uuid4.MatchString(id) || ids[id] {
			t.Fatalf("event %d: bad or repeated id %q", i, id)
		}
		ids[id] = true
		ts, _ := m["timestamp"].(string)
		if !naiveTime.MatchString(ts) {
			t.Fatalf("event %d: timestamp %q is not naive ISO", i, ts)
		}
		at, err := model.ParseTime(ts)
		if err != nil || at.Before(prev) {
			t.Fatalf("event %d: timestamp %q goes back or does not parse (%v)", i, ts, err)
		}
		prev = at
		if p, ok := m["parent_id"].(string); i > 0 && (!ok || !ids[p]) {
			t.Fatalf("event %d: parent_id %q is not an earlier event", i, p)
		}
		if kind != "ConversationStateUpdateEvent" && bytes.Contains(raw, []byte(":null")) {
			t.Fatalf("event %d (%s) has a null field", i, kind)
		}
	}
}

// TestConversationContent checks that the elements the protocol describes
// appear, in a consistent way: every action answered by its observation or
// error, statuses at turn edges, stats after LLM calls, condensations
// forgetting earlier ids, and the finish at the end.
func TestConversationContent(t *testing.T) {
	evs := collect(t, Options{Events: 2500, Seed: 5})
	decoded := make([]model.Event, len(evs))
	for i, raw := range evs {
		ev, err := model.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		decoded[i] = ev
	}
	if decoded[0].Kind != "SystemPromptEvent" {
		t.Fatalf("first event is %s", decoded[0].Kind)
	}
	seen := map[string]int{}
	actions := map[string]*model.Action{} // by event id
	byCall := map[string]string{}         // tool_call_id -> action id
	answered := map[string]bool{}         // action ids
	responses := map[string]int{}         // llm_response_id -> actions
	tools := map[string]bool{}
	exitCodes := map[int]bool{}
	statuses := map[string]bool{}
	usages := map[string]bool{}
	for i, ev := range decoded {
		seen[ev.Kind]++
		switch b := ev.Body.(type) {
		case *model.Action:
			actions[ev.ID] = b
			byCall[b.ToolCallID] = ev.ID
			responses[b.LLMResponseID]++
			tools[b.ToolName+"/"+b.ActionKind] = true
		case *model.Observation:
			if a, ok := actions[b.ActionID]; !ok || a.ToolCallID != b.ToolCallID {
				t.Fatalf("event %d: observation for unknown action %s", i, b.ActionID)
			}
			answered[b.ActionID] = true
			if b.ExitCode != nil {
				exitCodes[*b.ExitCode] = true
			}
		case *model.AgentError:
			id, ok := byCall[b.ToolCallID]
			if !ok {
				t.Fatalf("event %d: agent error for unknown call", i)
			}
			answered[id] = true
		case *model.StateUpdate:
			if b.ExecutionStatus != "" {
				statuses[b.ExecutionStatus] = true
			}
			if b.Stats != nil {
				seen["stats"]++
				for u := range b.Stats.UsageToMetrics {
					usages[u] = true
				}
			}
		case *model.Condensation:
			if len(b.ForgottenIDs) == 0 {
				t.Fatalf("event %d: condensation forgets nothing", i)
			}
		}
	}
	for id := range actions {
		if !answered[id] {
			t.Errorf("action %s has no observation", id)
		}
	}
	parallel := false
	for _, n := range responses {
		parallel = parallel || n > 1
	}
	// One stats update per LLM call: each agent response (actions or a
	// message) and each condenser call.
	agentMessages := 0
	for _, ev := range decoded {
		if m, ok := ev.Body.(*model.Message); ok && m.LLMResponseID != "" {
			agentMessages++
		}
	}
	if want := len(responses) + agentMessages + seen["Condensation"]; seen["stats"] != want {
		t.Errorf("%d stats updates for %d LLM calls", seen["stats"], want)
	}
	for _, want := range []string{"ActionEvent", "ObservationEvent", "MessageEvent", "ConversationStateUpdateEvent",
		"AgentErrorEvent", "Condensation", "CondensationRequest"} {
		if seen[want] == 0 {
			t.Errorf("no %s in 2500 events", want)
		}
	}
	for _, want := range []string{"terminal/TerminalAction", "file_editor/FileEditorAction", "task_tracker/TaskTrackerAction",
		"think/ThinkAction", "finish/FinishAction", "file_editor/"} {
		if !tools[want] {
			t.Errorf("no %s action", want)
		}
	}
	for _, want := range []string{"running", "finished", "idle", "waiting_for_confirmation"} {
		if !statuses[want] {
			t.Errorf("status %s never set", want)
		}
	}
	if !usages["agent"] || !usages["condenser"] {
		t.Errorf("stats usages %v, want agent and condenser", usages)
	}
	if !exitCodes[0] || !exitCodes[1] {
		t.Errorf("exit codes %v, want 0 and 1", exitCodes)
	}
	if !parallel {
		t.Error("no parallel tool calls")
	}
	last := decoded[len(decoded)-1]
	if su, ok := last.Body.(*model.StateUpdate); !ok || su.ExecutionStatus != "finished" {
		t.Errorf("last event is %s, want execution_status=finished", last.Summary)
	}
	if a, ok := decoded[len(decoded)-3].Body.(*model.Action); !ok || a.ActionKind != "FinishAction" {
		t.Errorf("the conversation does not end with a FinishAction")
	}
}

// TestAverageSize keeps the events near upstream's scale (about 1.5 KB).
func TestAverageSize(t *testing.T) {
	total := 0
	for ev := range Events(Options{Events: 5000, Seed: 9}) {
		total += len(ev)
	}
	avg := total / 5000
	if avg < 1100 || avg > 2000 {
		t.Fatalf("average event size %d bytes, want about 1500", avg)
	}
}

func TestBaseStateMatchesStats(t *testing.T) {
	o := Options{Events: 1500, Seed: 4}
	raw := BaseState(o)
	var bs struct {
		ID              string `json:"id"`
		ExecutionStatus string `json:"execution_status"`
		LeafEventID     string `json:"leaf_event_id"`
		Confirmation    struct {
			Kind string `json:"kind"`
		} `json:"confirmation_policy"`
		Stats struct {
			UsageToMetrics map[string]struct {
				AccumulatedCost float64 `json:"accumulated_cost"`
				Costs           []struct {
					Cost float64 `json:"cost"`
				} `json:"costs"`
				Latencies   []json.RawMessage `json:"response_latencies"`
				TokenUsages []struct {
					Prompt int64 `json:"prompt_tokens"`
				} `json:"token_usages"`
				Acc struct {
					Prompt int64 `json:"prompt_tokens"`
				} `json:"accumulated_token_usage"`
			} `json:"usage_to_metrics"`
		} `json:"stats"`
	}
	if err := json.Unmarshal(raw, &bs); err != nil {
		t.Fatal(err)
	}
	if !uuid4.MatchString(bs.ID) || bs.ExecutionStatus != "finished" || bs.Confirmation.Kind != "ConfirmRisky" {
		t.Fatalf("base state header: %+v", bs)
	}
	if bytes.Contains(raw, []byte(":null")) {
		t.Fatal("base_state.json has nulls")
	}
	evs := collect(t, o)
	var lastStats []byte
	for _, ev := range evs {
		if bytes.Contains(ev, []byte(`"key":"stats"`)) {
			lastStats = ev
		}
	}
	last, err := model.Decode(lastStats)
	if err != nil {
		t.Fatal(err)
	}
	snap := last.Body.(*model.StateUpdate).Stats
	if bs.LeafEventID != string(evs[len(evs)-2][7:43]) {
		t.Errorf("leaf_event_id %s is not the FinishObservation", bs.LeafEventID)
	}
	for usage, m := range bs.Stats.UsageToMetrics {
		n := len(m.Costs)
		if n == 0 || len(m.Latencies) != n || len(m.TokenUsages) != n {
			t.Fatalf("%s: lists of %d/%d/%d", usage, n, len(m.Latencies), len(m.TokenUsages))
		}
		var sum float64
		var prompt int64
		for i := range m.Costs {
			sum += m.Costs[i].Cost
			prompt += m.TokenUsages[i].Prompt
		}
		if d := sum - m.AccumulatedCost; d > 1e-9 || d < -1e-9 || prompt != m.Acc.Prompt {
			t.Errorf("%s: lists do not add up to the totals", usage)
		}
		if s := snap.UsageToMetrics[usage]; s == nil || s.AccumulatedCost != m.AccumulatedCost {
			t.Errorf("%s: base state cost differs from the last stats update", usage)
		}
	}
}

func TestWriteDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "conv")
	o := Options{Events: 600, Seed: 2}
	if err := WriteDir(dir, o); err != nil {
		t.Fatal(err)
	}
	evs := collect(t, o)
	entries, err := os.ReadDir(filepath.Join(dir, "events"))
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`^event-(\d{5,})-([0-9a-f-]{36})\.json$`)
	files := 0
	for _, e := range entries {
		m := name.FindStringSubmatch(e.Name())
		if m == nil {
			if e.Name() != ".eventlog.lock" {
				t.Errorf("unexpected file %s", e.Name())
			}
			continue
		}
		files++
		data, err := os.ReadFile(filepath.Join(dir, "events", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var idx int
		for _, c := range m[1] {
			idx = idx*10 + int(c-'0')
		}
		if !bytes.Equal(data, evs[idx]) || !strings.Contains(string(data), `"id":"`+m[2]+`"`) {
			t.Errorf("%s does not hold event %d", e.Name(), idx)
		}
	}
	if files != o.Events {
		t.Fatalf("%d event files, want %d", files, o.Events)
	}
	base, err := os.ReadFile(filepath.Join(dir, "base_state.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(base, BaseState(o)) {
		t.Fatal("base_state.json differs from BaseState")
	}
}

func TestWriteDirReportsErrors(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteDir(filepath.Join(blocker, "conv"), Options{Events: 10}); err == nil {
		t.Fatal("WriteDir under a file succeeded")
	}
}

func TestWriteJSONL(t *testing.T) {
	var buf bytes.Buffer
	o := Options{Events: 300, Seed: 6}
	if err := WriteJSONL(&buf, o); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	evs := collect(t, o)
	if len(lines) != len(evs) {
		t.Fatalf("%d lines, want %d", len(lines), len(evs))
	}
	for i := range lines {
		if lines[i] != string(evs[i]) {
			t.Fatalf("line %d differs from event %d", i, i)
		}
	}
}

func TestStartOption(t *testing.T) {
	start := time.Date(2027, 1, 2, 3, 4, 5, 0, time.UTC)
	first := collect(t, Options{Events: 1, Start: start})[0]
	if !bytes.Contains(first, []byte(`"timestamp":"2027-01-02T03:04:05.`)) {
		t.Fatalf("first event does not start at Start: %.120s", first)
	}
}

func TestEditorCommandsAppear(t *testing.T) {
	seen := map[string]bool{}
	for ev := range Events(Options{Events: 3000, Seed: 12}) {
		for _, cmd := range []string{"view", "create", "str_replace"} {
			if bytes.Contains(ev, []byte(`"command":"`+cmd+`","path"`)) && bytes.Contains(ev, []byte(`"kind":"FileEditorAction"`)) {
				seen[cmd] = true
			}
		}
		if bytes.Contains(ev, []byte(`"command":"view","task_list":[]`)) {
			seen["task view"] = true
		}
		if bytes.Contains(ev, []byte(`Here's the files and directories up to 2 levels deep`)) {
			seen["dir view"] = true
		}
	}
	for _, want := range []string{"view", "create", "str_replace", "task view", "dir view"} {
		if !seen[want] {
			t.Errorf("no %s action in 3000 events", want)
		}
	}
}

// TestEventsStreamInFlatMemory generates far more bytes than it lets the
// heap hold: the generator must not keep the events it has handed out.
func TestEventsStreamInFlatMemory(t *testing.T) {
	const n = 20_000 // about 30 MB of JSON
	var peak uint64
	var ms runtime.MemStats
	i := 0
	for range Events(Options{Events: n, Seed: 21}) {
		i++
		if i%5_000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
	if peak > 24<<20 {
		t.Fatalf("live heap reached %d MB while streaming", peak>>20)
	}
}
