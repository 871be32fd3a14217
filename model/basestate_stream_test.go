package model_test

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"

	"ohwatch/gen"
	"ohwatch/model"
)

// sameBase fails unless the streamed base state says what the one decoded
// in memory says: every field but Raw, and of each usage its metrics and
// the per-call lists ohwatch keeps (costs, token usages).
func sameBase(t *testing.T, got, want *model.BaseState) {
	t.Helper()
	if got.ID != want.ID || got.Title != want.Title || got.ExecutionStatus != want.ExecutionStatus ||
		got.ConfirmationPolicy != want.ConfirmationPolicy || got.MaxIterations != want.MaxIterations ||
		got.LeafEventID != want.LeafEventID || got.Derived != want.Derived || got.Raw != nil {
		t.Fatalf("streamed %+v\nin memory %+v", got, want)
	}
	if (got.Stats == nil) != (want.Stats == nil) {
		t.Fatalf("stats %v, want %v", got.Stats, want.Stats)
	}
	if want.Stats == nil {
		return
	}
	if len(got.Stats.UsageToMetrics) != len(want.Stats.UsageToMetrics) {
		t.Fatalf("%d usages, want %d", len(got.Stats.UsageToMetrics), len(want.Stats.UsageToMetrics))
	}
	for id, w := range want.Stats.UsageToMetrics {
		g, ok := got.Stats.UsageToMetrics[id]
		if !ok || (g == nil) != (w == nil) {
			t.Fatalf("usage %q: %v, want %v", id, g, w)
		}
		if w == nil {
			continue
		}
		if g.ModelName != w.ModelName || g.AccumulatedCost != w.AccumulatedCost || g.Accumulated != w.Accumulated ||
			(g.MaxBudgetPerTask == nil) != (w.MaxBudgetPerTask == nil) {
			t.Fatalf("usage %q: %+v, want %+v", id, g, w)
		}
		if len(g.Costs) != len(w.Costs) || len(g.TokenUsages) != len(w.TokenUsages) {
			t.Fatalf("usage %q: %d costs, %d usages; want %d, %d", id, len(g.Costs), len(g.TokenUsages), len(w.Costs), len(w.TokenUsages))
		}
		for k := range w.Costs {
			if g.Costs[k] != w.Costs[k] {
				t.Fatalf("usage %q cost %d: %+v, want %+v", id, k, g.Costs[k], w.Costs[k])
			}
		}
		for k := range w.TokenUsages {
			if g.TokenUsages[k] != w.TokenUsages[k] {
				t.Fatalf("usage %q call %d: %+v, want %+v", id, k, g.TokenUsages[k], w.TokenUsages[k])
			}
		}
	}
}

// TestReadBaseStateIsDecodeBaseState: streamed through a reader that hands
// out a few bytes at a time, a generated base state reads as it decodes in
// memory.
func TestReadBaseStateIsDecodeBaseState(t *testing.T) {
	for _, raw := range [][]byte{
		gen.BaseState(gen.Options{Events: 3000, Seed: 7}),
		[]byte(" {\"id\":\"ab\",\"agent_status\":\"finished\",\"stats\":{\"service_to_metrics\":{\"a\":{\"costs\":[{\"cost\":1,\"model\":\"m\",\"timestamp\":2}] , \"response_latencies\":[{\"latency\":1}],\"token_usages\":[{\"prompt_tokens\":2,\"response_id\":\"r\\\"1\"}],\"x\":[[1],{\"y\":\"}\"}]},\"b\":null}}} \n"),
		[]byte(`{"execution_status":"idle","stats":null}`),
		[]byte(`{}`),
	} {
		want, err := model.DecodeBaseState(raw)
		if err != nil {
			t.Fatal(err)
		}
		got, err := model.ReadBaseState(io.NopCloser(&trickle{r: bytes.NewReader(raw)}), 1<<20)
		if err != nil {
			t.Fatalf("%v on %.80q", err, raw)
		}
		sameBase(t, got, want)
	}
}

// TestReadBaseStateBadInput: a truncated or malformed base state is one
// line of error, the truncated one saying so.
func TestReadBaseStateBadInput(t *testing.T) {
	raw := gen.BaseState(gen.Options{Events: 300, Seed: 7})
	for _, c := range []struct{ in, want string }{
		{"", "empty input"},
		{string(raw[:len(raw)/2]), "truncated JSON"},
		{string(raw[:len(raw)-1]), "truncated JSON"},
		{`[1]`, "looking for '{'"},
		{`{"stats":{"usage_to_metrics":{"a":{"costs":[{"cost":"x"}]}}}}`, "costs"},
		{`{"stats":{"usage_to_metrics":{"a":{"costs":[{"cost":1} {}]}}}}`, "after an array element"},
		{`{"stats":{"usage_to_metrics":{"a":{"costs":[{"cost":1,]}}}}`, "not one JSON value"},
		{`{"execution_status":7}`, "execution_status"},
		{`{"title":"` + strings.Repeat("x", 2000), "outside the per-call lists"},
		{`{} x`, "after the end of the object"},
	} {
		limit := 1 << 20
		if strings.HasPrefix(c.in, `{"title"`) {
			limit = 1000
		}
		_, err := model.ReadBaseState(strings.NewReader(c.in), limit)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%.60q: error %v, want one line with %q", c.in, err, c.want)
		}
	}
}

// trickle hands out at most 7 bytes a read: every boundary of a value
// falls between reads somewhere.
type trickle struct{ r io.Reader }

func (t *trickle) Read(p []byte) (int, error) { return t.r.Read(p[:min(len(p), 7)]) }

// FuzzReadBaseState: whatever the bytes, streaming them never panics or
// hangs, fails exactly when decoding them in memory fails, and otherwise
// says the same.
func FuzzReadBaseState(f *testing.F) {
	f.Add(gen.BaseState(gen.Options{Events: 40, Seed: 7}))
	f.Add([]byte(`{"agent_status":"finished","stats":{"service_to_metrics":{"a":{"costs":[{"cost":1}],"token_usages":[{"prompt_tokens":2,"response_id":"r"}],"response_latencies":[]},"b":null}}}`))
	f.Add([]byte(`{"stats":{"usage_to_metrics":{"a":{"costs":[{"cost":1,]}}}}`))
	f.Add([]byte(`{"stats":{"usage_to_metrics":{"a":{"costs":null,"token_usages":{}}}}}`))
	f.Add([]byte(`{"stats":{"usage_to_metrics":{"a":{"costs":[1,"x",[]],"response_latencies":[{"latency":"s"}]}}}}`))
	f.Add([]byte(`{"stats":{"usage_to_metrics":{"a":{"costs":[]},"a":{"token_usages":[{}]}}}}`))
	f.Add([]byte(`{"title":"\"}\\","stats":{"x":[{"}":"]"}]}} `))
	f.Fuzz(func(t *testing.T, raw []byte) {
		want, werr := model.DecodeBaseState(bytes.Clone(raw))
		got, gerr := model.ReadBaseState(&trickle{r: bytes.NewReader(raw)}, 1<<20)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("in memory: %v; streamed: %v", werr, gerr)
		}
		if gerr != nil {
			if strings.Contains(gerr.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", gerr)
			}
			return
		}
		sameBase(t, got, want)
	})
}

// bigBaseState is a base_state.json of about size bytes streamed from
// memory: a status, one usage with its accumulated cost and usage, and
// per-call lists long enough to reach size, almost all of them latencies
// (which ReadBaseState only counts), then calls whose costs and tokens are
// kept: calls of them.
func bigBaseState(size int64, calls int) io.Reader {
	head := `{"id":"0123456789abcdef0123456789abcdef","execution_status":"finished","stats":{"usage_to_metrics":{"agent":{"model_name":"m","accumulated_cost":1.5,"accumulated_token_usage":{"prompt_tokens":7,"completion_tokens":3},"response_latencies":[`
	latency := `{"model":"litellm_proxy/anthropic/claude-sonnet-4-5","latency":1.25,"response_id":"chatcmpl-0123456789abcdef"},`
	var tail strings.Builder
	tail.WriteString(`{"latency":1}],"costs":[`)
	for k := range calls {
		if k > 0 {
			tail.WriteByte(',')
		}
		tail.WriteString(`{"model":"m","cost":0.5,"timestamp":1760000000.5}`)
	}
	tail.WriteString(`],"token_usages":[`)
	for k := range calls {
		if k > 0 {
			tail.WriteByte(',')
		}
		tail.WriteString(`{"prompt_tokens":2,"completion_tokens":1,"response_id":"r"}`)
	}
	tail.WriteString(`]}}}}`)
	n := (size - int64(len(head)+tail.Len())) / int64(len(latency))
	return io.MultiReader(strings.NewReader(head), &repeat{s: latency, n: n}, strings.NewReader(tail.String()))
}

// repeat reads as s n times over, without holding more than s.
type repeat struct {
	s   string
	n   int64
	off int
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	w := 0
	for w < len(p) && r.n > 0 {
		c := copy(p[w:], r.s[r.off:])
		w += c
		if r.off += c; r.off == len(r.s) {
			r.off = 0
			r.n--
		}
	}
	return w, nil
}

// TestReadBaseStateOfAnySize: a base state of 1.1 GiB, over the gigabyte
// that bounded a base_state.json read whole, still gives its status and
// totals, in memory bounded by the limit and the calls kept, not by its
// size.
func TestReadBaseStateOfAnySize(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 1.1 GiB")
	}
	const size = 1100 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b, err := model.ReadBaseState(bigBaseState(size, 3), 1<<20)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	m := b.Stats.UsageToMetrics["agent"]
	if b.ExecutionStatus != "finished" || m == nil || m.AccumulatedCost != 1.5 || m.Accumulated.Prompt != 7 ||
		len(m.Costs) != 3 || len(m.TokenUsages) != 3 || m.TokenUsages[2].ResponseID != "r" {
		t.Fatalf("base %+v, metrics %+v", b, m)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("allocated %d MiB reading it", alloc>>20)
	}
}

// TestReadBaseStateListsHoldNoSpare: the per-call lists a streamed base
// state keeps for as long as its log are as long as their calls, not as
// long as appending grew them (an eighth more on average).
func TestReadBaseStateListsHoldNoSpare(t *testing.T) {
	raw := gen.BaseState(gen.Options{Events: 3000, Seed: 7})
	b, err := model.ReadBaseState(io.NopCloser(bytes.NewReader(raw)), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for id, m := range b.Stats.UsageToMetrics {
		if cap(m.Costs) != len(m.Costs) || cap(m.TokenUsages) != len(m.TokenUsages) {
			t.Errorf("%s: costs %d of %d, token usages %d of %d", id, len(m.Costs), cap(m.Costs), len(m.TokenUsages), cap(m.TokenUsages))
		}
		calls += len(m.TokenUsages)
	}
	if calls < 100 {
		t.Fatalf("%d calls: the test covers too few", calls)
	}
}
