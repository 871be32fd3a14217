package fleetsource

import (
	"context"
	"errors"
	"sync"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/model"
)

// ServerOptions tunes a server source. The zero value is right for real
// use; tests shrink the durations.
type ServerOptions struct {
	// Interval is the time between two listings (DefaultInterval when 0);
	// a failing listing backs off from it up to MaxBackoff
	// (DefaultMaxBackoff when 0).
	Interval   time.Duration
	MaxBackoff time.Duration
	// Watch tunes each conversation's live stream.
	Watch agentserver.WatchOptions
}

// server is every conversation of one agent-server.
type server struct {
	c    *agentserver.Client
	opts ServerOptions
}

// Server watches every conversation of the agent-server c talks to: its
// search is asked at an interval (every page), a conversation seen for the
// first time is announced with its listing and streamed live over c.Watch
// (history, then the socket, with resume, reconnect and dedupe), and a
// listing that changed is handed on. Ended conversations stay.
func Server(c *agentserver.Client, opts ServerOptions) Source {
	return &server{c: c, opts: opts}
}

func (s *server) Label() string          { return s.c.BaseURL() }
func (s *server) Kind() model.SourceKind { return model.SourceServer }

// Run implements Source.
func (s *server) Run(ctx context.Context, emit func(...model.FleetUpdate)) {
	var wg sync.WaitGroup
	defer wg.Wait()
	listed := map[string]*model.ConversationMeta{}
	self := sourceRef(s)
	p := newPoller(s.opts.Interval, s.opts.MaxBackoff, agentserverCode)
	p.run(ctx, func(ctx context.Context) error {
		infos, err := s.c.SearchConversations(ctx)
		if err != nil {
			return err
		}
		// The listing's changes travel together, before any stream
		// starts: a consumer sees the whole listing at once.
		var changed []model.FleetUpdate
		var fresh []model.ConversationRef
		parents := delegators(infos)
		for _, info := range infos {
			meta := serverMeta(info)
			if meta.ParentID == "" {
				meta.ParentID = parents[info.ID]
			}
			ref := model.ConversationRef{Source: self.Source, Kind: self.Kind, ID: info.ID}
			old, known := listed[info.ID]
			if known && sameListing(old, meta) {
				continue
			}
			listed[info.ID] = meta
			changed = append(changed, model.FleetUpdate{Ref: ref, Meta: meta})
			if !known {
				fresh = append(fresh, ref)
			}
		}
		emit(changed...)
		for _, ref := range fresh {
			wg.Add(1)
			go func() {
				defer wg.Done()
				forward(ref, s.c.Watch(ctx, ref.ID, s.opts.Watch), emit)
			}()
		}
		return nil
	}, func(cs model.ConnState) { emit(model.FleetUpdate{Ref: self, Batch: model.Batch{Conn: &cs}}) })
}

// forward hands a conversation's batches on as updates until its feed
// closes.
func forward(ref model.ConversationRef, feed <-chan model.Batch, emit func(...model.FleetUpdate)) {
	for b := range feed {
		emit(model.FleetUpdate{Ref: ref, Batch: b})
	}
}

// serverMeta is the listing of a conversation from the server's search.
func serverMeta(info *agentserver.ConversationInfo) *model.ConversationMeta {
	m := &model.ConversationMeta{Title: info.Title, Status: info.ExecutionStatus, CreatedAt: info.CreatedAt, UpdatedAt: info.UpdatedAt,
		ParentID: info.ParentID(), ForkedFromEvent: info.ForkedFromEventID}
	if info.Base != nil {
		m.Stats = info.Base.Stats
	}
	return m
}

// agentserverCode classifies a listing failure as a watch's would be.
func agentserverCode(err error) string {
	switch {
	case errors.Is(err, agentserver.ErrAuth):
		return agentserver.CodeAuth
	case errors.Is(err, agentserver.ErrNotFound):
		return agentserver.CodeNotFound
	case errors.Is(err, agentserver.ErrConnect):
		return agentserver.CodeConnect
	}
	return ""
}
