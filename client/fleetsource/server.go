package fleetsource

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/format"
	"ohwatch/model"
	"ohwatch/reducer"
)

// DefaultMaxStreams is how many conversations of one source are streamed
// live at once: a socket and a history each. 64 covers every conversation
// a team runs at the same time on one server; the rest are shown from the
// listing, which costs nothing per conversation.
const DefaultMaxStreams = 64

// DefaultGatherReads is how long a fleet's socket lets frames gather
// between two reads (agentserver.WatchOptions.GatherReads) unless its
// watch options say otherwise: a table refreshed a few times a second
// loses nothing to 50 ms, and a hundred busy streams cost a read each
// per 50 ms instead of one per event (BenchmarkFleetScale20k).
const DefaultGatherReads = 100 * time.Millisecond

// fleetWatch is w with the fleet's read gathering unless w sets its own
// (negative: off).
func fleetWatch(w agentserver.WatchOptions) agentserver.WatchOptions {
	if w.GatherReads == 0 {
		w.GatherReads = DefaultGatherReads
	}
	return w
}

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
	// MaxStreams is the most conversations streamed live at once
	// (DefaultMaxStreams when 0).
	MaxStreams int
	// MaxListed caps the conversations one listing takes
	// (agentserver.DefaultMaxListed when 0).
	MaxListed int
	// StreamAll streams every conversation once, settled or not (its
	// history read, then its stream ended as for one that settled), for a
	// consumer that needs every conversation's events (traces); still at
	// most MaxStreams at once.
	StreamAll bool
	// Archived lists a server's archived conversations too (SDK #4994);
	// by default its listing holds the active ones and a note says how
	// many are archived.
	Archived bool
}

// server is every conversation of one agent-server.
type server struct {
	c    *agentserver.Client
	opts ServerOptions
}

// Server watches every conversation of the agent-server c talks to. Its
// search is asked at an interval, and each page's conversations are handed
// on as the page arrives. A conversation that can change (running,
// waiting for confirmation, a status not known, or a listing that changed
// since the last poll) is streamed live over c.Watch (history, then the
// socket), the most urgent first and at most MaxStreams at once; one that
// cannot (finished, error, stuck, idle, paused) is shown from its listing
// alone (PhaseListed: its status and stats), and streamed once its listing
// changes. A stream whose conversation has settled is ended at the next
// listing that finds it unchanged.
func Server(c *agentserver.Client, opts ServerOptions) Source {
	if opts.MaxStreams <= 0 {
		opts.MaxStreams = DefaultMaxStreams
	}
	opts.Watch = fleetWatch(opts.Watch)
	return &server{c: c, opts: opts}
}

func (s *server) Label() string          { return s.c.BaseURL() }
func (s *server) Kind() model.SourceKind { return model.SourceServer }

// serverConv is what the source remembers of one listed conversation.
type serverConv struct {
	ref  model.ConversationRef
	meta *model.ConversationMeta
	// changed is the poll at which the listing last changed (0: only
	// first seen at the first poll).
	changed int
	// entered is the poll its listed status was first seen at: a run
	// that just began, not one that only moved its updated_at.
	entered int
	// stream is its live stream, nil when it has none; streamed is set
	// once a stream of it went live or gave up (StreamAll needs no more).
	stream   *stream
	streamed bool
	// listedShown is set once PhaseListed was handed on for it since its
	// last stream: one that wants a stream and waits for a free one says
	// so once, not at every schedule.
	listedShown bool
	// offline is set for a Cloud conversation whose sandbox does not run:
	// there is nothing to stream.
	offline bool
}

// stream is one conversation's live watch. mu orders its updates with
// its stop: once stopped, nothing more of it is handed on, so the
// PhaseListed that stop emits is the last word until a new stream starts.
type stream struct {
	cancel  context.CancelFunc
	done    chan struct{}
	mu      sync.Mutex
	stopped bool
	// live turns true once the watch is live (its history is in): a
	// stream is not ended before, or a conversation that just changed
	// would be stopped before it showed anything.
	live atomic.Bool
}

// ended reports whether the stream has stopped (cancelled, or its watch
// gave up).
func (st *stream) ended() bool {
	select {
	case <-st.done:
		return true
	default:
		return false
	}
}

// emit hands b on unless the stream was stopped.
func (st *stream) emit(ref model.ConversationRef, b model.Batch, emit func(...model.FleetUpdate)) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.stopped {
		emit(model.FleetUpdate{Ref: ref, Batch: b})
	}
	if b.Conn != nil && b.Conn.Phase == model.PhaseLive {
		st.live.Store(true)
	}
}

// Run implements Source.
func (s *server) Run(ctx context.Context, emit func(...model.FleetUpdate)) {
	var wg sync.WaitGroup
	defer wg.Wait()
	self := sourceRef(s)
	sch := &scheduler{ctx: ctx, self: self, emit: emit, wg: &wg, convs: map[string]*serverConv{}, parents: map[string]string{},
		maxStreams: s.opts.MaxStreams, streamAll: s.opts.StreamAll,
		watch: func(ref model.ConversationRef) streamFunc {
			return func(ctx context.Context, send func(model.Batch)) {
				for b := range s.c.Watch(ctx, ref.ID, s.opts.Watch) {
					send(b)
				}
			}
		}}
	warned := ""
	// Each poll decodes only what changed, and a listed row keeps its
	// stats summed.
	memo := &agentserver.ListingMemo{Summarize: reducer.ListedUsageOf}
	p := newPoller(s.opts.Interval, s.opts.MaxBackoff, agentserverCode)
	p.run(ctx, func(ctx context.Context) error {
		sch.poll++
		l, err := s.c.ListConversations(ctx, agentserver.ListOptions{MaxItems: s.opts.MaxListed, Memo: memo, Archived: s.opts.Archived}, sch.page)
		if w := listingWarning(l, s.opts.MaxListed); w != warned {
			// Said once, not at every poll, and again when it changes.
			warned = w
			if w != "" {
				emit(model.FleetUpdate{Ref: self, Batch: model.Batch{Warnings: []string{w}}})
			}
		}
		if err != nil {
			return err
		}
		sch.schedule(true)
		return nil
	}, func(cs model.ConnState) { emit(model.FleetUpdate{Ref: self, Batch: model.Batch{Conn: &cs}}) })
}

// listingWarning says what a listing left out: malformed items skipped,
// and a listing cut before its last page ("" when neither).
func listingWarning(l agentserver.Listing, maxListed int) string {
	w := ""
	if l.Skipped > 0 {
		w = fmt.Sprintf("skipped %s the server listed malformed (first: %s)", format.Plural(l.Skipped, "conversation"), l.FirstSkip)
	}
	if l.Cut != "" && l.Cut != agentserver.CutNothingNew {
		if maxListed <= 0 {
			maxListed = agentserver.DefaultMaxListed
		}
		cut := fmt.Sprintf("listing cut at %s after %s: %s (the cap is %d)", format.Plural(l.Items, "conversation"), format.Plural(l.Pages, "page"), l.Cut, maxListed)
		if w != "" {
			w += "; "
		}
		w += cut
	}
	if l.Archived > 0 {
		// Not a problem, but what the table does or does not show.
		what := fmt.Sprintf("%s archived, not listed (--archived lists them)", format.Plural(l.Archived, "conversation"))
		if l.ListedArchived {
			what = fmt.Sprintf("%s archived, listed", format.Plural(l.Archived, "conversation"))
		}
		if w != "" {
			w += "; "
		}
		w += what
	}
	return w
}

// scheduler decides which of a source's conversations stream live (an
// agent-server's, or Cloud's whose sandboxes run). It is owned by the
// source's polling goroutine.
type scheduler struct {
	ctx  context.Context
	self model.ConversationRef
	emit func(...model.FleetUpdate)
	// maxStreams and streamAll are the source's MaxStreams and StreamAll.
	maxStreams int
	streamAll  bool
	// watch is how a conversation is streamed, asked in the polling
	// goroutine as its stream starts.
	watch func(ref model.ConversationRef) streamFunc
	wg    *sync.WaitGroup
	poll  int
	convs map[string]*serverConv
	order []*serverConv // in order of first sight
	// parents are the delegating conversations of those delegated, as
	// listed (sub_conversation_ids).
	parents map[string]string
}

// streamFunc streams one conversation, handing each batch to send, until
// its watch ends or ctx does.
type streamFunc func(ctx context.Context, send func(model.Batch))

// page folds one page of the listing: each conversation new or changed is
// handed on at once, the page's updates together, and the streams are
// started for what now needs one, so rows show page by page. Streams are
// scheduled again only after a page that brought a conversation wanting
// one: scheduling walks every conversation listed so far, and doing it at
// every page made a listing of 20,000 walk 2 million (the end of the
// listing schedules in any case).
func (sch *scheduler) page(infos []*agentserver.ConversationInfo) {
	self := sch.self
	var changed []model.FleetUpdate
	wants := false
	// A conversation that delegated others may come on a later page than
	// they do (newest first): those already shown learn their parent now.
	for child, parent := range delegators(infos) {
		sch.parents[child] = parent
		if c, ok := sch.convs[child]; ok && c.meta.ParentID == "" {
			meta := *c.meta
			meta.ParentID = parent
			c.meta = &meta
			changed = append(changed, model.FleetUpdate{Ref: c.ref, Meta: c.meta})
		}
	}
	for _, info := range infos {
		meta := serverMeta(info)
		if meta.ParentID == "" {
			meta.ParentID = sch.parents[info.ID]
		}
		c, known := sch.convs[info.ID]
		if known && sameListing(c.meta, meta) {
			continue
		}
		if !known {
			c = &serverConv{ref: model.ConversationRef{Source: self.Source, Kind: self.Kind, ID: info.ID}}
			sch.convs[info.ID] = c
			sch.order = append(sch.order, c)
		}
		sch.relist(c, meta, known)
		u := model.FleetUpdate{Ref: c.ref, Meta: meta}
		if c.stream == nil {
			if sch.urgency(c) == 0 {
				u.Batch.Conn = &model.ConnState{Phase: model.PhaseListed}
				c.listedShown = true
			} else {
				wants = true
			}
		}
		changed = append(changed, u)
	}
	sch.emit(changed...)
	if wants {
		sch.schedule(false)
	}
}

// relist records a conversation's new listing, when its status changed
// and that the listing changed at this poll (not at the first: what is
// there when the fleet starts is not news).
func (sch *scheduler) relist(c *serverConv, meta *model.ConversationMeta, known bool) {
	if !known || c.meta.Status != meta.Status {
		c.entered = sch.poll
	}
	c.meta = meta
	if known || sch.poll > 1 {
		c.changed = sch.poll
	}
}

// urgency ranks a conversation's claim to a live stream: 0 for none
// (settled and unchanged, or offline), then a listing that just changed, a run, a
// status not known, and a wait for confirmation, which needs a person.
func (sch *scheduler) urgency(c *serverConv) int {
	if c.offline {
		return 0
	}
	switch c.meta.Status {
	case model.StatusWaitingForConfirmation:
		return 4
	case model.StatusRunning:
		return 3
	case model.StatusFinished, model.StatusError, model.StatusStuck, model.StatusIdle, model.StatusPaused:
		if c.changed == sch.poll && c.changed > 0 || sch.streamAll && !c.streamed {
			return 1
		}
		return 0
	}
	return 2
}

// schedule starts streams for the most urgent conversations without one,
// up to MaxStreams. At the end of a listing (settle) it also ends the
// streams of conversations that no longer need one, and of those that a
// more urgent one displaces.
func (sch *scheduler) schedule(settle bool) {
	var want []*serverConv
	for _, c := range sch.order {
		if c.stream != nil && c.stream.live.Load() {
			// Its history is in: StreamAll has what it needs of it.
			c.streamed = true
		}
		if c.stream != nil && c.stream.ended() {
			c.streamed = true
			if c.changed != sch.poll {
				// Its watch gave up (the conversation was deleted, …):
				// not again until its listing changes.
				continue
			}
			c.stream = nil
		}
		if sch.urgency(c) > 0 || c.stream != nil && !settle {
			want = append(want, c)
		}
	}
	sch.rank(want)
	keep := map[*serverConv]bool{}
	for i, c := range want {
		if i >= sch.maxStreams {
			break
		}
		keep[c] = true
	}
	if settle {
		for _, c := range sch.order {
			if c.stream != nil && !c.stream.ended() && c.stream.live.Load() && !keep[c] {
				sch.stop(c)
			}
		}
	}
	running := 0
	for _, c := range sch.order {
		if c.stream != nil && !c.stream.ended() {
			running++
		}
	}
	var waiting []model.FleetUpdate
	for _, c := range want {
		if keep[c] && c.stream == nil && running < sch.maxStreams {
			sch.start(c)
			running++
		}
		if c.stream == nil && !c.listedShown {
			// It waits for a free stream: shown from its listing
			// meanwhile, and saying so, not a blank connection.
			c.listedShown = true
			waiting = append(waiting, model.FleetUpdate{Ref: c.ref, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseListed}}})
		}
	}
	if len(waiting) > 0 {
		sch.emit(waiting...)
	}
}

// start streams a conversation live.
func (sch *scheduler) start(c *serverConv) {
	ctx, cancel := context.WithCancel(sch.ctx)
	st := &stream{cancel: cancel, done: make(chan struct{})}
	c.stream, c.listedShown = st, false
	ref := c.ref
	watch := sch.watch(ref)
	sch.wg.Add(1)
	go func() {
		defer sch.wg.Done()
		defer close(st.done)
		defer cancel()
		watch(ctx, func(b model.Batch) { st.emit(ref, b, sch.emit) })
	}()
}

// stop ends a conversation's stream; it is shown from its listing again.
func (sch *scheduler) stop(c *serverConv) {
	st := c.stream
	c.stream = nil
	c.streamed = c.streamed || st.live.Load()
	st.cancel()
	st.mu.Lock()
	defer st.mu.Unlock()
	st.stopped = true
	c.listedShown = true
	if sch.ctx.Err() == nil {
		sch.emit(model.FleetUpdate{Ref: c.ref, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseListed}}})
	}
}

// rank orders conversations by their claim to a stream, the strongest
// first: the more urgent; among equals, one whose status changed at this
// poll (a run that just began), then one already streaming, then the most
// recently updated. Streams keep their place among equals: a hundred
// running conversations with 64 streams traded places at every poll as
// their updated_at moved, and each displaced one read its whole history
// again when it came back (three quarters of the fleet's CPU).
func (sch *scheduler) rank(cs []*serverConv) {
	tier := func(c *serverConv) int {
		switch {
		case c.entered == sch.poll:
			return 0
		case c.stream != nil && !c.stream.ended():
			return 1
		}
		return 2
	}
	slices.SortStableFunc(cs, func(a, b *serverConv) int {
		if d := cmp.Compare(sch.urgency(b), sch.urgency(a)); d != 0 {
			return d
		}
		if d := cmp.Compare(tier(a), tier(b)); d != 0 {
			return d
		}
		return b.meta.UpdatedAt.Compare(a.meta.UpdatedAt)
	})
}

// serverMeta is the listing of a conversation from the server's search.
func serverMeta(info *agentserver.ConversationInfo) *model.ConversationMeta {
	m := &model.ConversationMeta{Title: info.Title, Status: info.ExecutionStatus, CreatedAt: info.CreatedAt, UpdatedAt: info.UpdatedAt,
		ParentID: info.ParentID(), ForkedFromEvent: info.ForkedFromEventID}
	if info.Base != nil {
		m.Stats = info.Base.Stats
	}
	m.Usage = info.Usage
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
