package conversation

import (
	"regexp"
	"testing"

	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// pairedRe reads the action a result's row names: "↳#12".
var pairedRe = regexp.MustCompile(`↳(#\d+)`)

// TestListPairsEachResultWithItsAction: a result's row names (↳#N) the
// action the SDK's rule gives it, the one the inspector and the compare
// screen name too: on the hard cases, the project's recordings, and an
// agent error that comes long after its action (one tool call id, no
// action id).
func TestListPairsEachResultWithItsAction(t *testing.T) {
	t.Parallel()
	logs := tuitest.ResultCases(t)
	for _, name := range tuitest.ResultRecordings {
		logs["own "+name] = tuitest.Twin(t, name)
	}
	logs["errors"] = tuitest.ErrorLog(t)
	late := []string{tuitest.RawAction(1, "toolu_late", "r1", "make")}
	for k := 2; k < 102; k++ {
		late = append(late, tuitest.StateUpdate(tuitest.RawID(k), "2026-01-27T03:57:00.000000", "stats", map[string]any{}))
	}
	late = append(late, tuitest.RawError(102, "toolu_late", "A restart occurred while this tool was in progress"))
	logs["agent error long after its action"] = tuitest.FixtureLog(t, late...)
	for name, log := range logs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want := map[int]string{}
			for i := range log.Len() {
				if r, ok := tuitest.SDKResult(log, i); ok {
					want[r] = tui.Ordinal(i)
				}
			}
			d := drive(t, Options{Log: log}, 200, 50)
			for j := range log.Len() {
				switch log.Event(j).Body.(type) {
				case *model.Observation, *model.UserReject, *model.AgentError:
				default:
					continue
				}
				d.Press(":").Type(tui.Ordinal(j)).Press("enter")
				row := lineWith(d.Screen(), "▶")
				got := ""
				if m := pairedRe.FindStringSubmatch(row); m != nil {
					got = m[1]
				}
				if got != want[j] {
					t.Errorf("%s pairs with %q, the SDK's rule says %q: %q", tui.Ordinal(j), got, want[j], row)
				}
			}
		})
	}
}
