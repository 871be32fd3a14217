package fleet

import (
	"testing"
	"time"

	"ohwatch/model"
	"ohwatch/reducer"
)

// TestIdleOfAnEndedRunIsCalm: IDLE of a recording that ended is "-", not
// the months since; a server's finished run keeps its idle time.
func TestIdleOfAnEndedRunIsCalm(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	later := t0.Add(262*24*time.Hour + 8*time.Hour)
	for _, tt := range []struct {
		v    reducer.Verdict
		want string
	}{
		{reducer.Verdict{Status: model.StatusRunning, Recorded: true}, "-"},
		{reducer.Verdict{Status: model.StatusFinished, Confirmed: true}, "262d08h00m"},
		{reducer.Verdict{Status: model.StatusRunning}, "262d08h00m"},
	} {
		r := Row{Verdict: tt.v, LastActivity: t0}
		if got := ColIdle.Text(r, later); (tt.want == "-") != (got == "-") {
			t.Errorf("%+v: IDLE %q, want %q", tt.v, got, tt.want)
		}
	}
}
