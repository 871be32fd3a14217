package model_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/fixtures"
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
	fastStatsAgreeOn(t, paths)
}

// TestFastStatsNeverMisreadsOwnBaseStates is the same over the project's
// base_state.json files: the old versions' (empty usage) and the full
// ones gen writes, with their per-call lists.
func TestFastStatsNeverMisreadsOwnBaseStates(t *testing.T) {
	fastStatsAgreeOn(t, []string{fixtures.Path(t, fixtures.BaseStateV1115), fixtures.Path(t, fixtures.BaseStateV1170),
		filepath.Join(fixtures.Path(t, fixtures.SDK), "base_state.json"),
		filepath.Join(fixtures.Path(t, fixtures.Situations), "base_state.json")})
}

// fastStatsAgreeOn checks the fast stats reader on every "stats" object of
// the files at paths.
func fastStatsAgreeOn(t *testing.T, paths []string) {
	t.Helper()
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
		t.Fatal("no stats object in the base states")
	}
}
