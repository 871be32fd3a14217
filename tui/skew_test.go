package tui

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"ohwatch/internal/upstream"
	"ohwatch/reducer"
)

// TestResultBeforeItsActionReadsAsClockSkew checks that an observation
// stamped before its action shows the negative gap as such, flagged, and
// not as the positive duration it is not.
func TestResultBeforeItsActionReadsAsClockSkew(t *testing.T) {
	dir := filepath.Join(upstream.Dir(t), "trajectories", "simple_echo_hello_world", "events")
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(names)
	log := reducer.NewLog(nil, 0)
	var actionAt time.Time
	for i, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		ev := decode(t, raw)
		switch i {
		case 2: // the action
			actionAt = ev.Time
		case 3: // its observation, from a clock 1h27m behind
			ev.Time = actionAt.Add(-(time.Hour + 27*time.Minute))
		}
		log.Append(ev)
	}
	out := screen(newModel(Options{Log: log}, 160, 48))
	if !strings.Contains(out, "↳#3 -1h27m (clock skew)") {
		t.Errorf("the negative gap is not shown as clock skew:\n%s", out)
	}
}
