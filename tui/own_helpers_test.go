package tui

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/reducer"
)

// recorded loads one of the project's own recordings (a fixtures name,
// events/*.json in file order) into a fresh log. The CLI-shaped ones
// (fixtures.Shapes) stand in, on every clone, for the upstream CLI
// trajectories of the same shape that trajectory reads.
func recorded(tb testing.TB, name string) *reducer.Log {
	tb.Helper()
	dir := filepath.Join(fixtures.Path(tb, name), "events")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no events in %s: %v", dir, err)
	}
	sort.Strings(files)
	log := reducer.NewLog(nil, 0)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		log.Append(decode(tb, raw))
	}
	return log
}

// loader reads a recording by its upstream trajectory name: trajectory
// reads the upstream recording itself, twin the project's own recording of
// the same shape.
type loader func(tb testing.TB, name string) *reducer.Log

// twins names, for each upstream CLI trajectory, the project's recording
// that reproduces its shape.
var twins = map[string]string{
	"simple_echo_hello_world":             fixtures.Echo,
	"confirmation_mode":                   fixtures.Confirm,
	"creating_agent_plan":                 fixtures.Plan,
	"cli447_hi_followup_iterative_case_a": fixtures.Critic,
}

// twin is the project's own recording of the shape of the upstream
// trajectory name.
func twin(tb testing.TB, name string) *reducer.Log {
	tb.Helper()
	own, ok := twins[name]
	if !ok {
		tb.Fatalf("no own recording of the shape of %s", name)
	}
	return recorded(tb, own)
}

// readsARecording names the golden scenarios built on a recording: their
// twins on the project's own recordings have goldens of their own.
var readsARecording = map[string]bool{
	"replay_start": true, "midrun_task_plan": true, "waiting_for_confirmation": true, "error": true,
	"inspector_terminal_action": true, "attention_pinned_waiting": true, "pinned_new_events": true,
	"gap_times": true, "raw_json_wrapped": true, "raw_json_sideways": true, "markdown_message": true,
	"export_path_prompt": true, "long_conversation_times": true,
}

// readers keeps the scenarios that read a recording.
func readers(scs []scenario) []scenario {
	var out []scenario
	for _, sc := range scs {
		if readsARecording[sc.name] {
			out = append(out, sc)
		}
	}
	return out
}

// sources are the two recordings a golden test with upstream goldens runs
// on: the upstream trajectory (skipped on a bare clone) and its twin on the
// project's own recordings, whose goldens carry the "own_" prefix.
var sources = []struct {
	prefix string
	load   loader
}{{"", trajectory}, {"own_", twin}}
