package cli

import (
	"context"

	"ohwatch/client/files"
	"ohwatch/fleet"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/session"
)

// lsTail is how many of a conversation's last event files `ls` reads when
// base_state.json does not state its status: enough to hold the newest
// status update of a real run, and never the whole of a long conversation.
const lsTail = 256

// recordedVerdict gives a conversation on disk the verdict every other
// surface gives it (reducer.Verdict): a directory is a recording, its last
// status final. base_state.json's status is that last status, so reading
// it is enough. A recording without one (the CLI's) is decided from its
// last lsTail event files (reducer.TailVerdict), or folded whole when that
// is all of it; when its tail does not decide, the status is unknown
// rather than guessed. Its cost, when base_state.json did not give it, is
// then the fold's, or the newest stats update's of the tail, as a
// server's listing gives it.
func recordedVerdict(ctx context.Context, r fleet.Row, status, path string) fleet.Row {
	if v, ok := reducer.BaseVerdict(&model.BaseState{ExecutionStatus: status}); ok {
		r.Verdict = v
		return r
	}
	tail, total := files.Tail(path, lsTail)
	if total > lsTail {
		r.Verdict, _ = reducer.TailVerdict(tail)
		if st := reducer.TailStats(tail); st != nil && !r.CostKnown {
			r.Cost, r.CostKnown = statsCost(st)
			r.MetricsReported = len(st.UsageToMetrics) > 0
		}
		return r
	}
	_, log, err := session.LoadLog(ctx, path)
	if err != nil {
		return r // its warnings were said; "unknown" is all there is to say
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
