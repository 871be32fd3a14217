package cloudserver

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLsNoFalseZeroCost: the listing of this app server reports metrics
// as zeros nothing ever writes. A conversation that ran an LLM, with no
// stored events to tell its cost (a server without webhooks, the newer
// events route), is listed with its cost unknown, never a known $0.00.
func TestLsNoFalseZeroCost(t *testing.T) {
	parallel(t)
	bare := bare.get(t)
	conv, sandbox := bare.startConv(t, "STEPS=1")
	if r := bare.ohwatch(t, "cloud", "--conversation", conv, "--headless"); r.code != 0 {
		t.Fatalf("watching %s to its end: exit %d\n%s", conv, r.code, r.stderr)
	}
	bare.deleteSandbox(t, sandbox)

	r := bare.ohwatch(t, "ls", "cloud", "--json")
	if r.code != 0 {
		t.Fatalf("ls cloud --json: exit %d\n%s", r.code, r.stderr)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatalf("ls cloud --json: %v\n%s", err, r.stdout)
	}
	var row map[string]any
	for _, l := range list {
		if l["id"] == hex(conv) {
			row = l
		}
	}
	if row == nil {
		t.Fatalf("ls cloud lacks %s:\n%s", conv, r.stdout)
	}
	if row["cost_known"] != false {
		t.Errorf("ls cloud --json states a known cost for a conversation that ran an LLM and whose cost nothing tells: %v", row)
	}
	r = bare.ohwatch(t, "ls", "cloud")
	for line := range strings.Lines(r.stdout) {
		if strings.Contains(line, hex(conv)) && strings.Contains(line, "$0.00") {
			t.Errorf("ls cloud shows a false $0.00: %s", line)
		}
	}
}
