package export

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/testevents"
)

// TestUnreportedMetricsReadUnknown runs the state text, the state JSON and
// the markdown transcript over every recording: the upstream CLI
// recordings report no metrics at all, so no token count or call count may
// read 0 beside their LLM replies, while the JSON keeps its numbers and
// says so in metrics_reported, the first key of metrics. A generated
// conversation reports its stats, and every figure is a number again.
func TestUnreportedMetricsReadUnknown(t *testing.T) {
	cases := map[string]bool{}
	for _, dir := range fixtures.Recordings(t) {
		cases[dir] = false
	}
	cases["generated"] = true
	for dir, reported := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			evs := testevents.Generated(t, 300, 7)
			if dir != "generated" {
				evs = testevents.Recorded(t, dir)
			}
			log := logOf(evs)
			doc := State(log, -1, nil, true)
			if doc.Metrics.MetricsReported != reported {
				t.Fatalf("metrics_reported = %v, want %v", doc.Metrics.MetricsReported, reported)
			}
			var js bytes.Buffer
			if err := WriteState(&js, doc); err != nil {
				t.Fatal(err)
			}
			metrics := js.String()[strings.Index(js.String(), `"metrics": {`):]
			first := strings.TrimSpace(strings.SplitN(metrics, "\n", 3)[1])
			if want := `"metrics_reported": ` + map[bool]string{true: "true", false: "false"}[reported] + ","; first != want {
				t.Errorf("first key of metrics = %s, want %s", first, want)
			}
			var back map[string]any
			if err := json.Unmarshal(js.Bytes(), &back); err != nil {
				t.Fatal(err)
			}
			if _, ok := back["metrics"].(map[string]any)["prompt_tokens"].(float64); !ok {
				t.Errorf("prompt_tokens is not kept as a number")
			}
			var text, md bytes.Buffer
			if err := WriteStateText(&text, "id", "title", doc); err != nil {
				t.Fatal(err)
			}
			if err := Markdown(&md, "title", log, true); err != nil {
				t.Fatal(err)
			}
			for _, out := range []string{text.String(), md.String()} {
				for _, label := range []string{"tokens", "llm calls", "LLM calls", "context", "cache hit"} {
					line := lineOf(out, label)
					if line == "" {
						continue
					}
					if unknown := strings.Contains(line, "unknown"); unknown == reported {
						t.Errorf("%q line reads %q (metrics reported: %v)", label, line, reported)
					}
				}
			}
		})
	}
}

// lineOf returns the first line of out that starts (after "| " in a table)
// with label.
func lineOf(out, label string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimPrefix(line, "| "), label) {
			return line
		}
	}
	return ""
}
