package model_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/upstream"
	"ohwatch/model"
)

// TestFastStatsReadsGeneratedUpdates: every stats update of a generated
// conversation (the SDK's shape) takes the one-pass way, and reads as the
// general way reads it.
func TestFastStatsReadsGeneratedUpdates(t *testing.T) {
	updates := 0
	for raw := range gen.Events(gen.Options{Events: 3000, Seed: 4, Branches: 2}) {
		at := bytes.Index(raw, []byte(`"key":"stats","value":`))
		if at < 0 {
			continue
		}
		updates++
		at += len(`"key":"stats","value":`)
		accepted, problem := model.FastStatsAgrees(raw, at)
		if problem != "" {
			t.Fatal(problem)
		}
		if !accepted {
			t.Fatalf("declined a generated stats update: %s", raw)
		}
	}
	if updates < 100 {
		t.Fatalf("only %d stats updates generated", updates)
	}
}

// TestFastStatsNeverMisreadsBaseStates: the full form, with its lists, in
// the SDK's base_state.json files.
func TestFastStatsNeverMisreadsBaseStates(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(upstream.Dir(t), "base_state", "*.json"))
	seen := 0
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := range raw {
			if !bytes.HasPrefix(raw[i:], []byte(`"stats"`)) {
				continue
			}
			at := i + len(`"stats"`)
			for at < len(raw) && bytes.IndexByte([]byte(" \t\r\n:"), raw[at]) >= 0 {
				at++
			}
			if at < len(raw) && raw[at] == '{' {
				seen++
				if _, problem := model.FastStatsAgrees(raw, at); problem != "" {
					t.Fatal(problem)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no stats object in the upstream base states")
	}
}
