package cli

import (
	"context"
	"fmt"
	"io"
	"sync"

	"ohwatch/client/agentserver"
	"ohwatch/client/cloud"
	"ohwatch/fleet"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/session"
)

// lsCloudReaders bounds the stored histories `ls cloud` reads at once.
const lsCloudReaders = 4

// listCloud lists the conversations of the Cloud account (OH_API_KEY,
// OH_API_BASE), as `fleet cloud` lists them, without starting, resuming
// or deleting a sandbox. Each row's events, cost and (unless its sandbox
// runs) status are those of the events Cloud stored, folded as every
// other surface folds them: Cloud's listing has no event count, its
// status is empty unless the sandbox runs, and its metrics may be zeros
// nothing ever wrote, which are not a known $0.00.
func listCloud(ctx context.Context, env *session.Env, warn io.Writer) ([]listed, error) {
	cfg, err := cloudConfig(env)
	if err != nil {
		return nil, err
	}
	sess, err := cloud.New(cfg)
	if err != nil {
		return nil, usageErr(err.Error(), "set OH_API_KEY, and OH_API_BASE to https://HOST when it is not the default")
	}
	convs, err := sess.Conversations(ctx)
	if err != nil {
		return nil, cloudListError{fmt.Errorf("%s", sess.Redact(err.Error()))}
	}
	rows := make([]listed, len(convs))
	var mu sync.Mutex // guards warn
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(lsCloudReaders, len(convs)) {
		wg.Go(func() {
			for i := range next {
				r, warns := cloudRow(ctx, sess, &convs[i])
				rows[i] = listed{row: r}
				mu.Lock()
				for _, w := range warns {
					fmt.Fprintf(warn, "ohwatch ls: %s: %s\n", convs[i].ID, sanitize.Line(sess.Redact(w)))
				}
				mu.Unlock()
			}
		})
	}
	for i := range convs {
		next <- i
	}
	close(next)
	wg.Wait()
	return rows, nil
}

// cloudRow is the listing of one Cloud conversation: its stored events
// folded (count, cost, and the recorded status when its sandbox does not
// run), else what the listing says. Warnings are what reading the events
// met.
func cloudRow(ctx context.Context, sess *cloud.Session, c *cloud.Conversation) (fleet.Row, []string) {
	r := fleet.Row{Ref: model.ConversationRef{Source: "cloud", Kind: model.SourceCloud, ID: c.ID}, Title: sanitize.Line(c.Title),
		Events: -1, ParentID: sanitize.Line(c.ParentID)}
	r.LastActivity, _ = model.ParseTime(c.UpdatedAt)
	if c.Running() {
		r.Verdict = serverVerdict(c.ExecutionStatus)
	}
	if c.Metrics != nil {
		r.Cost, r.CostKnown = statsCost(&model.Stats{UsageToMetrics: map[string]*model.Metrics{"agent": c.Metrics}})
		r.MetricsReported = r.CostKnown
	}
	if c.Running() {
		// Its agent-server has the whole of it now; Cloud's copy lags by
		// the batch not posted yet.
		if r2, err := liveCloudRow(ctx, sess, c, r); err == nil {
			return r2, nil
		}
	}
	log := reducer.NewLog(nil, 0)
	var warns []string
	err := sess.StoredEvents(ctx, c.ID, func(evs []model.Event, w []string) error {
		log.Append(evs...)
		warns = append(warns, w...)
		return nil
	})
	if err != nil {
		return r, append(warns, "stored events: "+err.Error())
	}
	r.Events = log.Len() - log.Snapshots()
	s := log.Latest()
	if s.MetricsReported() {
		comb := s.Metrics.Combined
		r.Cost, r.CostKnown, r.MetricsReported = comb.CostUSD, comb.CostKnown, true
	}
	if !c.Running() && log.Len() > 0 {
		// Stored events are a recording that has ended for now: its
		// sandbox must be resumed before anything more can happen.
		r.Verdict = s.Verdict(true)
	}
	if n := log.Len(); n > 0 {
		if t := log.Event(n - 1).Time; t.After(r.LastActivity) {
			r.LastActivity = t
		}
	}
	return r, warns
}

// liveCloudRow completes the row of a conversation whose sandbox runs
// from its agent-server, as `ls URL` lists a server's: the event count,
// and the cost its stats give.
func liveCloudRow(ctx context.Context, sess *cloud.Session, c *cloud.Conversation, r fleet.Row) (fleet.Row, error) {
	target, err := sess.Live(ctx, *c)
	if err != nil {
		return r, err
	}
	ac, err := agentserver.New(target.AgentServerURL, target.SessionKey)
	if err != nil {
		return r, err
	}
	n, err := ac.CountEvents(ctx, target.ConversationID)
	if err != nil {
		return r, err
	}
	r.Events = n
	if info, err := ac.Conversation(ctx, target.ConversationID); err == nil && info.Base != nil && info.Base.Stats != nil {
		if cost, known := statsCost(info.Base.Stats); known {
			r.Cost, r.CostKnown, r.MetricsReported = cost, true, true
		}
	}
	return r, nil
}

// cloudListError is Cloud's listing failing: like an unreachable server,
// it exits 4.
type cloudListError struct{ err error }

func (e cloudListError) Error() string { return e.err.Error() }
func (e cloudListError) Unwrap() error { return e.err }
