package fleetsource

import (
	"context"
	"errors"
	"sync"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/client/cloud"
	"ohwatch/internal/sanitize"
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
	// MaxStreams is the most conversations streamed live at once
	// (DefaultMaxStreams when 0); StreamAll streams each running one
	// once, settled or not, as for a server.
	MaxStreams int
	StreamAll  bool
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
// account's listing is asked at an interval (every page). A conversation
// whose sandbox runs is chosen for a live stream from the sandbox's
// agent-server (as `ohwatch cloud --conversation` watches it) by the rule
// of a server's: what can change, the most urgent first, at most
// MaxStreams at once; the rest are shown from the listing (PhaseListed)
// and streamed once their listing changes. One whose sandbox is paused is
// shown from the events Cloud stored, without resuming the sandbox
// (Meta.Paused). If it runs again later, its live stream starts where the
// stored events ended. The source never starts, resumes or deletes a
// sandbox.
func Cloud(sess *cloud.Session, opts CloudOptions) *CloudSource {
	if opts.MaxStreams <= 0 {
		opts.MaxStreams = DefaultMaxStreams
	}
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

// storedRead is the reading of a conversation's stored events: once done
// is closed, ids are theirs, so the live stream that may follow does not
// deliver them twice.
type storedRead struct {
	done chan struct{}
	ids  []string
}

// Run implements Source.
func (s *CloudSource) Run(ctx context.Context, emit func(...model.FleetUpdate)) {
	var wg sync.WaitGroup
	defer wg.Wait()
	self := sourceRef(s)
	// Owned by the polling goroutine, as the scheduler is.
	stored := map[string]*storedRead{}
	streamed := map[string]bool{}
	sch := &scheduler{ctx: ctx, self: self, emit: emit, wg: &wg, convs: map[string]*serverConv{}, parents: map[string]string{},
		maxStreams: s.opts.MaxStreams, streamAll: s.opts.StreamAll,
		watch: func(ref model.ConversationRef) streamFunc {
			streamed[ref.ID] = true
			lc, _ := s.Conversation(ref.ID)
			read := stored[ref.ID]
			return func(ctx context.Context, send func(model.Batch)) { s.watch(ctx, lc, read, send) }
		}}
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
		sch.poll++
		// The listing's changes travel together, before any stream starts.
		var changed []model.FleetUpdate
		for i := range list {
			lc := &list[i]
			c, known := sch.convs[lc.ID]
			if !known {
				c = &serverConv{ref: model.ConversationRef{Source: self.Source, Kind: self.Kind, ID: lc.ID}}
				sch.convs[lc.ID] = c
				sch.order = append(sch.order, c)
			}
			c.offline = !lc.Running()
			meta := cloudMeta(lc)
			if known && sameListing(c.meta, meta) {
				continue
			}
			sch.relist(c, meta, known)
			u := model.FleetUpdate{Ref: c.ref, Meta: meta}
			if !c.offline && c.stream == nil && sch.urgency(c) == 0 {
				u.Batch.Conn = &model.ConnState{Phase: model.PhaseListed}
				c.listedShown = true
			}
			changed = append(changed, u)
		}
		emit(changed...)
		for _, lc := range list {
			if lc.Running() || stored[lc.ID] != nil || streamed[lc.ID] {
				continue
			}
			read := &storedRead{done: make(chan struct{})}
			stored[lc.ID] = read
			ref := sch.convs[lc.ID].ref
			wg.Add(1)
			go func() { defer wg.Done(); s.readStored(ctx, ref, read, emit) }()
		}
		sch.schedule(true)
		return nil
	}, func(cs model.ConnState) { emit(model.FleetUpdate{Ref: self, Batch: model.Batch{Conn: &cs}}) })
}

// readStored hands on the events Cloud stored for a conversation whose
// sandbox does not run, and keeps their ids for a live stream that may
// follow.
func (s *CloudSource) readStored(ctx context.Context, ref model.ConversationRef, read *storedRead, emit func(...model.FleetUpdate)) {
	defer close(read.done)
	// A few at a time: an account of thousands of paused conversations
	// must not open thousands of requests at once.
	select {
	case s.readers <- struct{}{}:
		defer func() { <-s.readers }()
	case <-ctx.Done():
		return
	}
	loaded := 0
	emit(model.FleetUpdate{Ref: ref, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseConnecting}}})
	err := s.sess.StoredEvents(ctx, ref.ID, func(evs []model.Event, warnings []string) error {
		for _, ev := range evs {
			if ev.ID != "" {
				read.ids = append(read.ids, ev.ID)
			}
		}
		loaded += len(evs)
		emit(model.FleetUpdate{Ref: ref, Batch: model.Batch{Events: evs, Warnings: warnings, Progress: &model.Progress{Loaded: loaded}}})
		return nil
	})
	done := model.ConnState{Phase: model.PhaseDone, Reason: "sandbox not running: stored events"}
	if err != nil && ctx.Err() == nil {
		done.Reason = sanitize.Line(s.sess.Redact(err.Error()))
	}
	emit(model.FleetUpdate{Ref: ref, Batch: model.Batch{Conn: &done}})
}

// watch streams a running conversation from its sandbox's agent-server.
// When its stored events were shown first, it waits for their reading to
// end and delivers only what they did not hold.
func (s *CloudSource) watch(ctx context.Context, lc cloud.Conversation, read *storedRead, send func(model.Batch)) {
	opts := fleetWatch(s.opts.Watch)
	if read != nil {
		select {
		case <-read.done:
			opts.Seen = append(append([]string(nil), opts.Seen...), read.ids...)
		case <-ctx.Done():
			return
		}
	}
	target, err := s.sess.Live(ctx, lc)
	if err != nil {
		if ctx.Err() == nil {
			send(model.Batch{Conn: &model.ConnState{Phase: model.PhaseLost, Final: true, Code: cloudCode(err), Reason: sanitize.Line(err.Error())}})
		}
		return
	}
	var copts []agentserver.Option
	if s.opts.Client != nil {
		copts = append(copts, s.opts.Client)
	}
	c, err := agentserver.New(target.AgentServerURL, target.SessionKey, copts...)
	if err != nil {
		send(model.Batch{Conn: &model.ConnState{Phase: model.PhaseLost, Final: true, Code: agentserver.CodeConnect, Reason: sanitize.Line(s.sess.Redact(err.Error()))}})
		return
	}
	for b := range c.Watch(ctx, target.ConversationID, opts) {
		send(b)
	}
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
