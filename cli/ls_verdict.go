package cli

import (
	"context"

	"ohwatch/fleet"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/session"
)

// recordedVerdict gives a conversation on disk the verdict every other
// surface gives it (reducer.Verdict): a directory is a recording, its last
// status final. base_state.json's status is that last status, so reading
// it is enough; a recording without one (the CLI's, a JSONL export) is
// folded to find it, and its cost is then known only if it reported
// metrics.
func recordedVerdict(ctx context.Context, r fleet.Row, status, path string) fleet.Row {
	if v, ok := reducer.BaseVerdict(&model.BaseState{ExecutionStatus: status}); ok {
		r.Verdict = v
		return r
	}
	_, log, err := session.LoadLog(ctx, path)
	if err != nil {
		return r // its warnings were said; "-" is all there is to say
	}
	s := log.Latest()
	if !r.CostKnown {
		c := s.Metrics.Combined
		r.Cost, r.CostKnown = c.CostUSD, s.MetricsReported() && c.CostKnown
		r.MetricsReported = s.MetricsReported()
	}
	r.Verdict = s.Verdict(true)
	return r
}

// serverVerdict words a server's status: the agent-server's REST answer is
// its current status, confirmed when it says finished.
func serverVerdict(status string) reducer.Verdict {
	if status == "" {
		return reducer.Verdict{}
	}
	return reducer.Verdict{Status: status, Source: reducer.SourceREST, Confirmed: status == model.StatusFinished}
}
