package compare

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/fixtures"
)

// A fork of a generated conversation shares, by identity, exactly the
// events it copied: the last of them is the fork point its meta.json names.
func TestForkSharesUntilItsForkPoint(t *testing.T) {
	dirs, err := gen.WriteRoot(t.TempDir(), gen.Options{Events: 600, Seed: 7, Forks: 2})
	if err != nil {
		t.Fatal(err)
	}
	parent := loadRun(t, "A", dirs[0])
	for _, dir := range dirs[1:] {
		meta := readForkMeta(t, dir)
		fork := loadRun(t, "B", dir)
		c := Compare(parent, fork)
		if c.SharedUntilID != meta.ForkedFromEventID {
			t.Errorf("%s: shared until %q, want the fork point %q", dir, c.SharedUntilID, meta.ForkedFromEventID)
		}
		if !c.Diverged() {
			t.Errorf("%s: a fork that went on differently does not diverge", dir)
		}
		r := NewReport(c)
		if r.SharedUntilEventID == nil || *r.SharedUntilEventID != meta.ForkedFromEventID || r.FirstDivergence == nil {
			t.Errorf("%s: report shared until %v, first divergence %v", dir, r.SharedUntilEventID, r.FirstDivergence)
		}
		// Every step up to the fork point is shared, not merely alike.
		for _, row := range c.Rows[:c.FirstDiff] {
			if !row.Shared || row.Op != Same {
				t.Fatalf("%s: row before the divergence %+v is not shared", dir, row)
			}
		}
		// and the two runs are the same in reverse.
		if back := Compare(fork, parent); back.SharedUntilID != meta.ForkedFromEventID {
			t.Errorf("%s: B vs A shared until %q", dir, back.SharedUntilID)
		}
	}
}

// A recording compared with itself does not diverge: every step is the
// same and shared, for every upstream recording and a generated one.
func TestSelfComparisonHasNoDivergence(t *testing.T) {
	paths := fixtures.Recordings(t)
	dir := t.TempDir()
	if err := gen.WriteDir(dir, gen.Options{Events: 500, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	paths = append(paths, dir)
	for _, path := range paths {
		a, b := loadRun(t, "A", path), loadRun(t, "B", path)
		c := Compare(a, b)
		if c.Diverged() || c.Changed+c.OnlyA+c.OnlyB != 0 || c.Same != len(c.StepsA) || len(c.StepsA) == 0 {
			t.Errorf("%s: %+v (first diff %d) over %d steps", path, c.Counts, c.FirstDiff, len(c.StepsA))
		}
		r := NewReport(c)
		if r.FirstDivergence != nil {
			t.Errorf("%s: first divergence %+v", path, r.FirstDivergence)
		}
		if last := a.Log.Event(a.Path().Tip()); r.SharedUntilEventID == nil || (last.ID != "" && !offBranch(&last) && *r.SharedUntilEventID != last.ID) {
			t.Errorf("%s: shared until %v", path, r.SharedUntilEventID)
		}
		var out bytes.Buffer
		if err := WriteJSON(&out, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), `"first_divergence": null`) {
			t.Errorf("%s: JSON does not say first_divergence null:\n%s", path, out.String())
		}
	}
}

// The markdown report names both sides' cost and steps.
func TestMarkdownNamesCostAndSteps(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := gen.WriteDir(a, gen.Options{Events: 300, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if err := gen.WriteDir(b, gen.Options{Events: 420, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	c := Compare(loadRun(t, "A", a), loadRun(t, "B", b))
	r := NewReport(c)
	var md bytes.Buffer
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	text := md.String()
	for _, want := range []string{
		"| cost | " + r.A.Cost + " | " + r.B.Cost + " |",
		"| steps | " + itoa(r.A.Steps) + " | " + itoa(r.B.Steps) + " |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("markdown lacks %q:\n%s", want, text)
		}
	}
	if r.A.CostUSD == nil || r.B.CostUSD == nil || r.A.Steps == 0 || r.B.Steps == 0 {
		t.Fatalf("generated runs report cost %v/%v, steps %d/%d", r.A.CostUSD, r.B.CostUSD, r.A.Steps, r.B.Steps)
	}
	if !strings.Contains(text, "cheaper") && !strings.Contains(text, "more expensive") {
		t.Errorf("markdown names no cost delta:\n%s", text)
	}
}

// The JSON report carries every field under the name the README gives.
func TestJSONFieldNames(t *testing.T) {
	dirs, err := gen.WriteRoot(t.TempDir(), gen.Options{Events: 300, Seed: 5, Forks: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := NewReport(Compare(loadRun(t, "A", dirs[0]), loadRun(t, "B", dirs[1])))
	var out bytes.Buffer
	if err := WriteJSON(&out, r); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b", "shared_until_event_id", "first_divergence", "counts", "deltas"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("no %q in %s", k, out.String())
		}
	}
	side := doc["a"].(map[string]any)
	for _, k := range []string{"status", "verdict", "duration", "cost", "tokens", "llm_calls", "steps", "errors", "tool_calls", "files_edited", "final_message"} {
		if _, ok := side[k]; !ok {
			t.Errorf("side lacks %q", k)
		}
	}
	tokens := side["tokens"].(map[string]any)
	for _, k := range []string{"prompt", "completion", "cache_read", "cache_write"} {
		if _, ok := tokens[k]; !ok {
			t.Errorf("tokens lack %q", k)
		}
	}
	counts := doc["counts"].(map[string]any)
	for _, k := range []string{"same", "changed", "only_a", "only_b"} {
		if _, ok := counts[k]; !ok {
			t.Errorf("counts lack %q", k)
		}
	}
	div := doc["first_divergence"].(map[string]any)
	if _, ok := div["a"].(map[string]any)["step"]; !ok {
		t.Errorf("first_divergence.a has no step index: %v", div)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
