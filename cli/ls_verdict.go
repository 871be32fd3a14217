package cli

import (
	"context"

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
func recordedVerdict(ctx context.Context, r listing) listing {
	if v, ok := reducer.BaseVerdict(&model.BaseState{ExecutionStatus: r.Status}); ok {
		return withVerdict(r, v)
	}
	_, log, err := session.LoadLog(ctx, r.Path)
	if err != nil {
		return r // its warnings were said; "-" is all there is to say
	}
	s := log.Latest()
	if !r.CostKnown {
		c := s.Metrics.Combined
		r.CostUSD, r.CostKnown = c.CostUSD, s.MetricsReported() && c.CostKnown
	}
	return withVerdict(r, s.Verdict(true))
}

// serverVerdict words a server's status: the agent-server's REST answer is
// its current status, confirmed when it says finished.
func serverVerdict(r listing) listing {
	if r.Status == "" {
		return r
	}
	return withVerdict(r, reducer.Verdict{Status: r.Status, Source: reducer.SourceREST, Confirmed: r.Status == model.StatusFinished})
}

func withVerdict(r listing, v reducer.Verdict) listing {
	r.Status, r.Verdict, r.StatusFinal = model.SanitizeLine(v.Status), model.SanitizeLine(v.String()), v.Final()
	return r
}
