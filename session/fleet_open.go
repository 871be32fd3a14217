package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"ohwatch/client/agentserver"
	"ohwatch/client/cloud"
	"ohwatch/client/files"
	"ohwatch/client/fleetsource"
	"ohwatch/internal/redact"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
)

// opener makes the session of one conversation of a fleet source, for the
// full monitor: its history loaded again (from disk, REST or Cloud's
// stored events, with progress where the source knows it) and its live
// feed. The fleet itself keeps no events; opening reads them.
type opener func(ctx context.Context, id string) (conversation, error)

// localOpener opens a conversation of a local root: one at rest as
// `ohwatch replay` shows it (read with progress, a recording whose last
// status is final), one being written read likewise and then followed
// from where the read ended, live.
func localOpener(src *fleetsource.LocalSource, secrets *redact.Secrets) opener {
	return func(ctx context.Context, id string) (conversation, error) {
		dir := src.Path(id)
		if dir == "" {
			return conversation{}, fmt.Errorf("%s is not in %s", id, src.Label())
		}
		r, err := files.Open(dir)
		if err != nil {
			return conversation{}, err
		}
		header := r.Header()
		growing := src.Growing(id)
		feed := make(chan model.Batch, 4)
		go func() {
			defer close(feed)
			streamChunks(ctx, r, feed)
			r.Close()
			if !growing {
				return
			}
			follower := files.Follower{Dir: dir, From: int64(header.EventFiles)}
			if err := follower.Run(ctx, feed); err != nil && ctx.Err() == nil {
				sendBatch(ctx, feed, model.Batch{Warnings: []string{sanitize.Line(err.Error())}})
			}
		}()
		s := conversation{
			id:        header.ID,
			title:     secrets.Redact(TitleOf(header.Title, header.ID, dir)),
			source:    "replay " + dir,
			log:       reducer.NewLog(header.Base, header.EventFiles),
			feed:      redactedFeed(ctx, secrets, feed),
			recording: !growing,
			fromFiles: true,
			traceID:   traceKey(header.ID, dir),
		}
		if growing {
			s.source, s.live = "follow "+dir, true
		}
		return s, nil
	}
}

// serverOpener opens a conversation of an agent-server, as `ohwatch
// watch` does: history over REST, then the socket, with confirmations.
func serverOpener(c *agentserver.Client) opener {
	return func(ctx context.Context, id string) (conversation, error) {
		s := serverSession(ctx, c, id, serverTitle(ctx, c, id))
		// A fork made here is listed under its parent by the fleet's
		// listing: b goes back to the table rather than open it twice.
		s.branching = brancher{ctx: ctx, c: c, id: id, fleet: true}
		return s, nil
	}
}

// serverSession is the live session of conversation id on the agent-server
// c talks to: the one `ohwatch watch` shows, also opened from the fleet.
func serverSession(ctx context.Context, c *agentserver.Client, id, title string) conversation {
	return serverSessionFed(ctx, c, id, title, c.Watch(ctx, id, agentserver.WatchOptions{FirstAttempts: 3}))
}

// serverSessionFed is serverSession over a watch the caller started.
func serverSessionFed(ctx context.Context, c *agentserver.Client, id, title string, feed <-chan model.Batch) conversation {
	return conversation{
		id:        id,
		title:     title,
		source:    "ws " + c.BaseURL(),
		log:       reducer.NewLog(nil, 0),
		feed:      feed,
		live:      true,
		server:    c.BaseURL(),
		confirm:   func(ctx context.Context) (string, error) { return c.Confirm(ctx, id) },
		controls:  confirmer{c: c, id: id},
		branching: brancher{ctx: ctx, c: c, id: id},
		traceID:   id,
	}
}

// cloudOpener opens a Cloud conversation: a running one live from its
// sandbox's agent-server, a paused one from the events Cloud stored,
// without resuming its sandbox.
func cloudOpener(src *fleetsource.CloudSource, sess *cloud.Session, secrets *redact.Secrets, logger *slog.Logger) opener {
	return func(ctx context.Context, id string) (conversation, error) {
		conv, title, err := listedInCloud(src, id)
		if err != nil {
			return conversation{}, err
		}
		if conv.Running() {
			target, err := sess.Live(ctx, conv)
			if err != nil {
				return conversation{}, err
			}
			return sandboxSession(ctx, target, title, secrets, logger)
		}
		return conversation{
			id:        id,
			title:     title + pausedNote,
			source:    "cloud stored events",
			log:       reducer.NewLog(nil, 0),
			feed:      storedFeed(ctx, sess, id),
			recording: true,
			traceID:   id,
		}, nil
	}
}

// cloudResumer opens a Cloud conversation whose sandbox is paused live,
// after resuming its sandbox (what y answers in the table): Cloud starts
// the sandbox again and, once it runs, the conversation is watched on its
// agent-server as a running one is.
func cloudResumer(src *fleetsource.CloudSource, sess *cloud.Session, secrets *redact.Secrets, logger *slog.Logger) opener {
	return func(ctx context.Context, id string) (conversation, error) {
		conv, title, err := listedInCloud(src, id)
		if err != nil {
			return conversation{}, err
		}
		target, err := sess.Resume(ctx, conv)
		if err != nil {
			return conversation{}, errors.New(sess.Redact(err.Error()))
		}
		return sandboxSession(ctx, target, title, secrets, logger)
	}
}

// listedInCloud returns the conversation the Cloud listing has under id
// and the title to show for it (its id when it has none).
func listedInCloud(src *fleetsource.CloudSource, id string) (cloud.Conversation, string, error) {
	conv, ok := src.Conversation(id)
	if !ok {
		return conv, "", fmt.Errorf("%s is not in the Cloud listing", id)
	}
	if conv.Title == "" {
		return conv, id, nil
	}
	return conv, conv.Title, nil
}

// sandboxSession watches a conversation live on its sandbox's
// agent-server; the sandbox's session key joins the secrets kept off
// every surface.
func sandboxSession(ctx context.Context, target cloud.Target, title string, secrets *redact.Secrets, logger *slog.Logger) (conversation, error) {
	secrets.Add(target.SessionKey)
	c, err := agentserver.New(target.AgentServerURL, target.SessionKey, agentserver.WithLogger(logger))
	if err != nil {
		return conversation{}, err
	}
	return serverSession(ctx, c, target.ConversationID, title), nil
}

// pausedNote follows the title of a Cloud conversation shown from the
// events Cloud stored.
const pausedNote = " (sandbox paused: Cloud's stored events)"

// storedFeed hands on the events Cloud stored for conversation id, page
// by page, then closes; a failure is a warning in the feed.
func storedFeed(ctx context.Context, sess *cloud.Session, id string) <-chan model.Batch {
	feed := make(chan model.Batch, 4)
	go func() {
		defer close(feed)
		loaded := 0
		err := sess.StoredEvents(ctx, id, func(evs []model.Event, warnings []string) error {
			loaded += len(evs)
			if !sendBatch(ctx, feed, model.Batch{Events: evs, Warnings: warnings, Progress: &model.Progress{Loaded: loaded}}) {
				return ctx.Err()
			}
			return nil
		})
		if err != nil && ctx.Err() == nil {
			sendBatch(ctx, feed, model.Batch{Warnings: []string{sanitize.Line(sess.Redact(err.Error()))}})
		}
	}()
	return feed
}

// sendBatch hands b to feed unless ctx ends first; it reports whether it
// was handed over.
func sendBatch(ctx context.Context, feed chan<- model.Batch, b model.Batch) bool {
	select {
	case feed <- b:
		return true
	case <-ctx.Done():
		return false
	}
}
