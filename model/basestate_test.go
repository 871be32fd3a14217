package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/upstream"
)

func TestDecodeBaseStateFixtures(t *testing.T) {
	tests := []struct {
		file, id string
	}{
		{"v1_11_5_cli_default.json", "11111111222233334444555555555555"},
		{"v1_17_0_with_mcp_config.json", "22222222333344445555666666666666"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			decodeOldBaseState(t, filepath.Join(upstream.Dir(t), "base_state", tt.file), tt.id)
		})
	}
}

// TestDecodeOwnOldBaseStates is TestDecodeBaseStateFixtures on the
// project's own files of those versions' shapes.
func TestDecodeOwnOldBaseStates(t *testing.T) {
	for _, tt := range []struct{ file, id string }{
		{fixtures.BaseStateV1115, "0a11c5e0d1f24b5c9e0a7b3c2d1e0f11"},
		{fixtures.BaseStateV1170, "0b17a0c0e2f34d6e8f1b2c3d4e5f6a17"},
	} {
		t.Run(tt.file, func(t *testing.T) { decodeOldBaseState(t, fixtures.Path(t, tt.file), tt.id) })
	}
}

// decodeOldBaseState decodes an old SDK's base_state.json: an idle
// conversation that never confirms, with no usage yet.
func decodeOldBaseState(t *testing.T, path, id string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := DecodeBaseState(raw)
	if err != nil {
		t.Fatal(err)
	}
	if b.ID != id || b.ExecutionStatus != StatusIdle || b.ConfirmationPolicy != "NeverConfirm" || b.MaxIterations != 500 || b.LeafEventID != "" {
		t.Errorf("%+v", b)
	}
	if b.Stats == nil || len(b.Stats.UsageToMetrics) != 0 || &b.Raw[0] != &raw[0] {
		t.Errorf("stats %+v", b.Stats)
	}
}

func TestDecodeBaseStateShapes(t *testing.T) {
	// A REST ConversationInfo: the state plus title, with full stats lists.
	info := `{"id":"E32A6901-3DF1-48D6-B9CF-1D2B48C172E8","title":"Fix the \u001b[31mbuild\u001b[0m","execution_status":"finished","confirmation_policy":{"kind":"ConfirmRisky","threshold":"HIGH"},"max_iterations":100,"leaf_event_id":"ev9","metrics":null,
		"stats":{"usage_to_metrics":{"agent":{"model_name":"m","accumulated_cost":0.25,"max_budget_per_task":5.0,"accumulated_token_usage":{"prompt_tokens":100,"completion_tokens":20,"per_turn_token":120,"context_window":200000},
		"costs":[{"model":"m","cost":0.1,"timestamp":1757015025.5},{"model":"m","cost":0.15,"timestamp":1757015030.25}],"response_latencies":[{"model":"m","latency":1.5,"response_id":"r1"}],"token_usages":[{"model":"m","prompt_tokens":60,"completion_tokens":10,"response_id":"r1"},{"prompt_tokens":40,"completion_tokens":10,"response_id":"r2"}]},
		"condenser":{"accumulated_cost":0.0}}},"created_at":"2026-01-28T14:33:09Z"}`
	b, err := DecodeBaseState([]byte(info))
	if err != nil {
		t.Fatal(err)
	}
	if b.ID != "e32a69013df148d6b9cf1d2b48c172e8" || b.Title != "Fix the build" || b.ExecutionStatus != "finished" || b.ConfirmationPolicy != "ConfirmRisky" || b.MaxIterations != 100 || b.LeafEventID != "ev9" {
		t.Errorf("%+v", b)
	}
	m := b.Stats.UsageToMetrics["agent"]
	if m == nil || len(m.Costs) != 2 || m.Costs[1].Timestamp != 1757015030.25 || len(m.Latencies) != 1 || len(m.TokenUsages) != 2 || m.TokenUsages[1].ResponseID != "r2" || *m.MaxBudgetPerTask != 5 || m.Accumulated.ContextWindow != 200000 {
		t.Errorf("%+v", m)
	}
	if _, ok := b.Stats.UsageToMetrics["condenser"]; !ok {
		t.Error("condenser usage missing")
	}

	legacy := `{"id":"e32a69013df148d6b9cf1d2b48c172e8","agent_status":"running","stats":{"service_to_metrics":{"default":{"accumulated_cost":1}}}}`
	b, err = DecodeBaseState([]byte(legacy))
	if err != nil {
		t.Fatal(err)
	}
	if b.ExecutionStatus != "running" || b.Stats.UsageToMetrics["default"].AccumulatedCost != 1 {
		t.Errorf("%+v", b)
	}

	for _, bad := range []string{"", "[]", `{"id":`, `{"id":"x","max_iterations":"many"}`, `{"stats":{"usage_to_metrics":[]}}`} {
		if _, err := DecodeBaseState([]byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "base state:") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
}

func TestDecodeStats(t *testing.T) {
	st, err := DecodeStats([]byte(`{"usage_to_metrics":{"default":{"accumulated_cost":0.5,"accumulated_token_usage":{"prompt_tokens":3}}}}`))
	if err != nil || st.UsageToMetrics["default"].Accumulated.Prompt != 3 {
		t.Fatalf("%+v %v", st, err)
	}
	if _, err := DecodeStats([]byte(`{"usage_to_metrics":{"default":{"accumulated_cost":"free"}}}`)); err == nil {
		t.Error("no error for a string cost")
	}
	if _, err := DecodeStats([]byte(`{"usage_to_metrics":`)); err == nil {
		t.Error("no error for truncated stats")
	}
}
