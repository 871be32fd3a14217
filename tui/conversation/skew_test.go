package conversation

import (
	"strings"
	"testing"
	"time"

	"ohwatch/internal/fixtures"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// TestResultBeforeItsActionReadsAsClockSkew checks that an observation
// stamped before its action shows the negative gap as such, flagged, and
// not as the positive duration it is not.
func TestResultBeforeItsActionReadsAsClockSkew(t *testing.T) {
	t.Parallel()
	src := tuitest.Recorded(t, fixtures.Echo)
	log := reducer.NewLog(nil, 0)
	for i := range src.Len() {
		ev := src.Event(i)
		if i == 3 { // the observation of #3, from a clock 1h27m behind
			ev.Time = src.Event(2).Time.Add(-(time.Hour + 27*time.Minute))
		}
		log.Append(ev)
	}
	out := screen(newModel(Options{Log: log}, 160, 48))
	if !strings.Contains(out, "↳#3 -1h27m (clock skew)") {
		t.Errorf("the negative gap is not shown as clock skew:\n%s", out)
	}
}
