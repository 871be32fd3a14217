package fleetsource

import (
	"context"
	"errors"
	"sync"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/client/cloud"
	"ohwatch/model"
)

// CloudOptions tunes a Cloud source. The zero value is right for real use.
type CloudOptions struct {
	// Interval and MaxBackoff time the listing as for a server.
	Interval   time.Duration
	MaxBackoff time.Duration
	// Watch tunes the live stream of each running conversation.
	Watch agentserver.WatchOptions
	// Client is given to each sandbox's agent-server client (TLS settings,
	// tests); nil uses the default.
	Client agentserver.Option
}

// CloudSource is every conversation of an OpenHands Cloud account.
type CloudSource struct {
	sess *cloud.Session
	opts CloudOptions

	mu     sync.Mutex
	listed map[string]cloud.Conversation
	// readers bounds the stored histories read at once.
	readers chan struct{}
}

// Cloud watches every conversation of the account sess reaches: the
// account's listing is asked at an interval (every page); a conversation
// whose sandbox runs is streamed live from the sandbox's agent-server, as
// `ohwatch cloud --conversation` does, and one whose sandbox is paused is
// shown from the events Cloud stored, without resuming the sandbox
// (Meta.Paused). If it runs again later, its live stream starts where the
// stored events ended. The source never starts, resumes or deletes a
// sandbox.
func Cloud(sess *cloud.Session, opts CloudOptions) *CloudSource {
	return &CloudSource{sess: sess, opts: opts, listed: map[string]cloud.Conversation{}, readers: make(chan struct{}, DefaultReaders*2)}
}

// Label implements Source: "cloud".
func (s *CloudSource) Label() string { return "cloud" }

// Kind implements Source.
func (s *CloudSource) Kind() model.SourceKind { return model.SourceCloud }

// Conversation returns the conversation with that id as last listed:
// opening it watches it live when its sandbox runs (cloud.Session.Live) or
// reads Cloud's stored events when it does not.
func (s *CloudSource) Conversation(id string) (cloud.Conversation, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.listed[id]
	return c, ok
}

// cloudConv is what the source remembers of one conversation: its listing
// and, while it is shown from stored events, their ids, so the live stream
// that may follow does not deliver them twice.
type cloudConv struct {
	meta   *model.ConversationMeta
	live   bool
	stored chan []string // the stored events' ids, once read; nil when none were read
}

// Run implements Source.
func (s *CloudSource) Run(ctx context.Context, emit func(...model.FleetUpdate)) {
	var wg sync.WaitGroup
	defer wg.Wait()
	self := sourceRef(s)
	convs := map[string]*cloudConv{}
	p := newPoller(s.opts.Interval, s.opts.MaxBackoff, cloudCode)
	p.run(ctx, func(ctx context.Context) error {
		list, err := s.sess.Conversations(ctx)
		if err != nil {
			return err
		}
		s.mu.Lock()
		for _, lc := range list {
			s.listed[lc.ID] = lc
		}
		s.mu.Unlock()
		// The listing's changes travel together, before any stream starts.
		var changed []model.FleetUpdate
		for _, lc := range list {
			c := convs[lc.ID]
			if c == nil {
				c = &cloudConv{}
				convs[lc.ID] = c
			}
			if meta := cloudMeta(&lc); !sameListing(c.meta, meta) {
				c.meta = meta
				changed = append(changed, model.FleetUpdate{Ref: model.ConversationRef{Source: self.Source, Kind: self.Kind, ID: lc.ID}, Meta: meta})
			}
		}
		emit(changed...)
		for _, lc := range list {
			ref := model.ConversationRef{Source: self.Source, Kind: self.Kind, ID: lc.ID}
			c := convs[lc.ID]
			switch {
			case c.live:
			case lc.Running():
				c.live = true
				stored := c.stored
				wg.Add(1)
				go func() { defer wg.Done(); s.watch(ctx, ref, lc, stored, emit) }()
			case c.stored == nil:
				c.stored = make(chan []string, 1)
				wg.Add(1)
				go func() { defer wg.Done(); s.readStored(ctx, ref, c.stored, emit) }()
			}
		}
		return nil
	}, func(cs model.ConnState) { emit(model.FleetUpdate{Ref: self, Batch: model.Batch{Conn: &cs}}) })
}

// readStored hands on the events Cloud stored for a conversation whose
// sandbox does not run, and passes their ids on for a live stream that may
// follow.
func (s *CloudSource) readStored(ctx context.Context, ref model.ConversationRef, ids chan<- []string, emit func(...model.FleetUpdate)) {
	// A few at a time: an account of thousands of paused conversations
	// must not open thousands of requests at once.
	select {
	case s.readers <- struct{}{}:
		defer func() { <-s.readers }()
	case <-ctx.Done():
		ids <- nil
		return
	}
	var seen []string
	loaded := 0
	emit(model.FleetUpdate{Ref: ref, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseConnecting}}})
	err := s.sess.StoredEvents(ctx, ref.ID, func(evs []model.Event) error {
		for _, ev := range evs {
			if ev.ID != "" {
				seen = append(seen, ev.ID)
			}
		}
		loaded += len(evs)
		emit(model.FleetUpdate{Ref: ref, Batch: model.Batch{Events: evs, Progress: &model.Progress{Loaded: loaded}}})
		return nil
	})
	done := model.ConnState{Phase: model.PhaseDone, Reason: "sandbox not running: stored events"}
	if err != nil && ctx.Err() == nil {
		done.Reason = model.SanitizeLine(s.sess.Redact(err.Error()))
	}
	emit(model.FleetUpdate{Ref: ref, Batch: model.Batch{Conn: &done}})
	ids <- seen
}

// watch streams a running conversation from its sandbox's agent-server.
// When its stored events were shown first, it waits for their ids and
// delivers only what they did not hold.
func (s *CloudSource) watch(ctx context.Context, ref model.ConversationRef, lc cloud.Conversation, stored <-chan []string, emit func(...model.FleetUpdate)) {
	opts := s.opts.Watch
	if stored != nil {
		select {
		case ids := <-stored:
			opts.Seen = append(append([]string(nil), opts.Seen...), ids...)
		case <-ctx.Done():
			return
		}
	}
	target, err := s.sess.Live(ctx, lc)
	if err != nil {
		if ctx.Err() == nil {
			emit(model.FleetUpdate{Ref: ref, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLost, Final: true, Code: cloudCode(err), Reason: model.SanitizeLine(err.Error())}}})
		}
		return
	}
	var copts []agentserver.Option
	if s.opts.Client != nil {
		copts = append(copts, s.opts.Client)
	}
	c, err := agentserver.New(target.AgentServerURL, target.SessionKey, copts...)
	if err != nil {
		emit(model.FleetUpdate{Ref: ref, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLost, Final: true, Code: agentserver.CodeConnect, Reason: model.SanitizeLine(s.sess.Redact(err.Error()))}}})
		return
	}
	forward(ref, c.Watch(ctx, target.ConversationID, opts), emit)
}

// cloudMeta is the listing of a Cloud conversation.
func cloudMeta(c *cloud.Conversation) *model.ConversationMeta {
	m := &model.ConversationMeta{Title: c.Title, Status: c.ExecutionStatus, Paused: c.Paused(), ParentID: c.ParentID}
	m.CreatedAt, _ = model.ParseTime(c.CreatedAt)
	m.UpdatedAt, _ = model.ParseTime(c.UpdatedAt)
	if c.Metrics != nil {
		m.Stats = &model.Stats{UsageToMetrics: map[string]*model.Metrics{"agent": c.Metrics}}
	}
	return m
}

// cloudCode classifies a Cloud failure for ConnState.Code.
func cloudCode(err error) string {
	switch {
	case errors.Is(err, cloud.ErrAuth):
		return agentserver.CodeAuth
	case errors.Is(err, cloud.ErrNotFound):
		return agentserver.CodeNotFound
	}
	return ""
}
