package session

import (
	"context"
	"errors"

	"ohwatch/client/agentserver"
	"ohwatch/client/cloud"
	"ohwatch/compare"
	"ohwatch/internal/redact"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/compareview"
)

// CloudRunPrefix spells a Cloud run on compare's command line:
// cloud:ID.
const CloudRunPrefix = "cloud:"

// CompareKeys is what reaches the runs' servers: the agent-server's
// session key and, for Cloud runs, the account's Cloud config. Every
// sandbox session key Cloud hands out joins Secrets.
type CompareKeys struct {
	Session string
	Cloud   cloud.Config
	Secrets *redact.Secrets
	// Warn, when set, is told what a run read whole for the report could
	// not settle (a stored event whose place is a guess).
	Warn func(string)
}

// cloudError marks a failure to reach a Cloud run: like an unreachable
// agent-server, it exits 4.
type cloudError struct{ err error }

func (e cloudError) Error() string { return e.err.Error() }
func (e cloudError) Unwrap() error { return e.err }

// cloudRun finds a Cloud run without waking it: a running one comes with
// where to watch it (target), a paused one with none.
func cloudRun(ctx context.Context, run CompareRun, keys CompareKeys) (*cloud.Session, cloud.Conversation, *cloud.Target, error) {
	sess, err := cloud.New(keys.Cloud)
	if err != nil {
		return nil, cloud.Conversation{}, nil, err
	}
	conv, err := sess.Lookup(ctx, run.ID)
	if err != nil {
		return nil, conv, nil, cloudError{errors.New(sess.Redact(err.Error()))}
	}
	if !conv.Running() {
		return sess, conv, nil, nil
	}
	target, err := sess.Live(ctx, conv)
	if err != nil {
		return nil, conv, nil, cloudError{errors.New(sess.Redact(err.Error()))}
	}
	if keys.Secrets != nil {
		keys.Secrets.Add(target.SessionKey)
	}
	return sess, conv, &target, nil
}

// cloudTitle is the title a Cloud run is shown under.
func cloudTitle(conv cloud.Conversation, target *cloud.Target) string {
	title := conv.Title
	if title == "" {
		title = conv.ID
	}
	if target == nil {
		title += pausedNote
	}
	return title
}

// loadCloudRun reads a Cloud run whole for the report: a running one from
// its sandbox's agent-server, a paused one from the events Cloud stored,
// as each stands now.
func loadCloudRun(ctx context.Context, run CompareRun, side compare.Side, keys CompareKeys) (*compare.Run, error) {
	sess, conv, target, err := cloudRun(ctx, run, keys)
	if err != nil {
		return nil, err
	}
	log := reducer.NewLog(nil, 0)
	if target != nil {
		c, err := agentserver.New(target.AgentServerURL, target.SessionKey)
		if err != nil {
			return nil, cloudError{errors.New(sess.Redact(err.Error()))}
		}
		evs, err := c.Events(ctx, target.ConversationID)
		if err != nil {
			return nil, cloudError{errors.New(sess.Redact(err.Error()))}
		}
		log.Append(evs...)
	} else {
		err := sess.StoredEvents(ctx, conv.ID, func(evs []model.Event, warnings []string) error {
			log.Append(evs...)
			for _, w := range warnings {
				if keys.Warn != nil {
					keys.Warn(sess.Redact(w))
				}
			}
			return nil
		})
		if err != nil {
			return nil, cloudError{errors.New(sess.Redact(err.Error()))}
		}
		side.Ended = true
	}
	side.Title, side.Source, side.ConversationID, side.Log = cloudTitle(conv, target), run.String(), conv.ID, log
	return compare.NewRun(side), nil
}

// openCloudSide opens a Cloud run for the compare screen: a running one
// is watched live on its sandbox's agent-server, a paused one streams in
// from the events Cloud stored, its sandbox left asleep.
func openCloudSide(ctx context.Context, run CompareRun, keys CompareKeys) (compareview.CompareSide, error) {
	sess, conv, target, err := cloudRun(ctx, run, keys)
	if err != nil {
		return compareview.CompareSide{}, err
	}
	title := cloudTitle(conv, target)
	if target == nil {
		return compareview.CompareSide{Title: title, Source: run.String(), Log: reducer.NewLog(nil, 0),
			Feed: storedFeed(ctx, sess, conv.ID), Through: run.Through, Ended: true}, nil
	}
	c, err := agentserver.New(target.AgentServerURL, target.SessionKey)
	if err != nil {
		return compareview.CompareSide{}, cloudError{errors.New(sess.Redact(err.Error()))}
	}
	s := serverSession(ctx, c, target.ConversationID, title)
	return compareview.CompareSide{Title: s.title, Source: run.String(), Log: s.log, Feed: s.feed, Live: true, Through: run.Through}, nil
}
