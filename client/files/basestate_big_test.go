package files

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/gen"
)

// writeBigBaseState writes dir/base_state.json with calls LLM calls in
// its stats' per-call lists, as a long real conversation's is (166 MB at a
// million events), and returns its size.
func writeBigBaseState(t *testing.T, dir string, calls int) int64 {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "base_state.json"))
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprint(w, `{"id":"0123456789abcdef0123456789abcdef","execution_status":"finished","stats":{"usage_to_metrics":{"agent":{"model_name":"m","accumulated_cost":1.5,"costs":[`)
	call := []byte(`{"model":"litellm_proxy/anthropic/claude-sonnet-4-5","cost":0.00123,"timestamp":1760000000.5},`)
	for i := range calls {
		if i == calls-1 {
			call = call[:len(call)-1]
		}
		w.Write(call)
	}
	fmt.Fprint(w, `],"response_latencies":[],"token_usages":[]}}}}`)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	info, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	return info.Size()
}

// TestBigBaseStateIsRead: a base_state.json over the limit for one event
// (its stats' per-call lists of 800,000 calls) is read whole, by the
// conversation's load and by a listing: it states the final status.
func TestBigBaseStateIsRead(t *testing.T) {
	dir := t.TempDir()
	if err := gen.WriteDir(dir, gen.Options{Events: 6, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	const calls = 800_000
	if size := writeBigBaseState(t, dir, calls); size <= MaxEventBytes {
		t.Fatalf("base_state.json of %d bytes, not over the limit for one event", size)
	}
	conv := mustLoad(t, dir)
	if conv.Base == nil || conv.Base.ExecutionStatus != "finished" || len(conv.Base.Stats.UsageToMetrics["agent"].Costs) != calls {
		t.Fatalf("base %+v, warnings %q", conv.Base, conv.Warnings)
	}
	for _, w := range conv.Warnings {
		if strings.Contains(w, "base_state") {
			t.Errorf("warning %q", w)
		}
	}
	if s := Summarise(dir); s.Status != "finished" || !s.CostKnown {
		t.Errorf("summary: status %q, cost known %v, warnings %q", s.Status, s.CostKnown, s.Warnings)
	}
}

// TestBaseStateOverItsBound: a base_state.json whose part outside the
// per-call lists is over MaxBaseStateBytes (a sparse file: a title that
// does not end) is not held, and says so in one warning; the events are
// read.
func TestBaseStateOverItsBound(t *testing.T) {
	dir := t.TempDir()
	if err := gen.WriteDir(dir, gen.Options{Events: 6, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	sparse(t, filepath.Join(dir, "base_state.json"), `{"execution_status":"finished","title":"`, MaxBaseStateBytes+1)
	conv := loadNotWhole(t, dir)
	if conv.Base != nil || len(conv.Events) != 6 {
		t.Fatalf("base %+v, %d events", conv.Base, len(conv.Events))
	}
	hasWarning(t, conv.Warnings, "base_state.json", "over 8 MiB outside the per-call lists")
}
