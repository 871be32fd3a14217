package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sort"
	"sync"
	"time"

	"ohwatch/model"
)

// Server replays recorded conversations through the agent-server protocol.
// It is safe for concurrent use.
type Server struct {
	opts    Options
	log     *slog.Logger
	faults  *faultState
	started time.Time

	ctx    context.Context // ends at Close: stops players and sockets
	cancel context.CancelFunc

	mu        sync.Mutex
	convs     map[string]*conversation
	order     []*conversation // in the order added: the order Stagger starts them in
	playing   bool            // the clocks have started
	lastTouch time.Time
	handler   http.Handler
	httpSrv   *http.Server
	unused    unusedConns
	sockets   sync.WaitGroup
	players   sync.WaitGroup
	closed    bool
}

// New returns a server with no conversations; Add them before or after it
// starts.
func New(opts Options) *Server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.AuthTimeout <= 0 {
		opts.AuthTimeout = DefaultAuthTimeout
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		opts:      opts,
		log:       log,
		faults:    newFaultState(opts.Inject),
		started:   time.Now(),
		ctx:       ctx,
		cancel:    cancel,
		convs:     make(map[string]*conversation),
		lastTouch: time.Now(),
	}
	s.handler = s.routes()
	return s
}

// Add serves a recorded conversation under id (dashed or hex; it is
// normalised). base may be nil (a recording without base_state.json).
// Adding an id again replaces nothing and is ignored. When the server is
// already serving, the conversation's clock starts now.
func (s *Server) Add(id string, base *model.BaseState, events []model.Event) {
	id = model.NormalizeConversationID(id)
	if id == "" && base != nil {
		id = base.ID
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.convs[id]; dup || s.closed {
		return
	}
	c := newConversation(id, base, events, &s.opts, s.faults, s.log)
	c.origin = &origin{id: id, base: base, recorded: c.recorded}
	s.convs[id] = c
	s.order = append(s.order, c)
	s.log.Info("conversation added", "conversation", id, "events", len(events))
	if s.playing {
		s.playLocked(c, 0)
	}
}

// OnReject gives the conversation id a recorded branch: when the action
// actionID is rejected through respond_to_confirmation, events replace the
// rest of the recording, so the replay shows how the run went on after that
// rejection instead of running the action anyway. It reports whether the
// conversation exists.
func (s *Server) OnReject(id, actionID string, events []model.Event) bool {
	c := s.conversation(id)
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.branches[actionID] = append([]model.Event(nil), events...)
	return true
}

// playLocked starts c's player after delay; until then c is hidden.
// One started at once is created here, before its player runs, so its
// created_at is fixed before any search can list it.
func (s *Server) playLocked(c *conversation, delay time.Duration) {
	c.mu.Lock()
	if delay > 0 {
		c.pending = true
	} else if !c.pending {
		c.started = time.Now().UTC()
	}
	c.mu.Unlock()
	s.players.Add(1)
	go func() {
		defer s.players.Done()
		s.run(c, delay)
	}()
}

// begin starts every conversation's clock, once.
func (s *Server) begin() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.playing || s.closed {
		return
	}
	s.playing = true
	s.started = time.Now()
	for i, c := range s.order {
		s.playLocked(c, s.startDelay(i))
	}
}

// Handler returns the server's routes for callers that serve them
// themselves. It starts the playback clocks.
func (s *Server) Handler() http.Handler {
	s.begin()
	return s.handler
}

// Start listens on addr (127.0.0.1 on a free port when addr is empty),
// serves in the background and starts the playback clocks. It returns the
// base URL ("http://127.0.0.1:PORT"). The server stops at Close or when ctx
// ends.
func (s *Server) Start(ctx context.Context, addr string) (string, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	s.mu.Lock()
	if s.closed || s.httpSrv != nil {
		s.mu.Unlock()
		return "", errors.New("serve: server already started or closed")
	}
	s.mu.Unlock()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("serve: listen on %s: %w", addr, err)
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ConnState: s.unused.track}
	s.mu.Lock()
	s.httpSrv = srv
	s.mu.Unlock()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("serve stopped", "err", err)
		}
	}()
	go func() {
		select {
		case <-ctx.Done():
			s.Close()
		case <-s.ctx.Done():
		}
	}()
	url := "http://" + ln.Addr().String()
	s.log.Info("serving", "url", url, "auth", s.opts.Key != "")
	return url, nil
}

// Close stops the players, closes every socket (1001 going away) and stops
// listening. It is safe to call more than once.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	srv := s.httpSrv
	s.mu.Unlock()
	s.cancel()
	if srv != nil {
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		srv.SetKeepAlivesEnabled(false)
		s.unused.closeAll()
		_ = srv.Shutdown(shutdown)
		cancel()
	}
	s.sockets.Wait()
	s.players.Wait()
}

// SetFaults replaces the injected faults at run time and restarts their
// counters.
func (s *Server) SetFaults(f Faults) { s.faults.set(f) }

// Silence makes a conversation go silent: it stops sending, REST answers
// 404 for it, and its open sockets stay open. It reports whether the
// conversation exists.
func (s *Server) Silence(id string) bool {
	c := s.conversation(id)
	if c == nil {
		return false
	}
	c.silence()
	return true
}

// WaitStatus returns once the conversation has had the execution status
// (now or earlier in its replay): for a test that must not act before a
// replay has got somewhere (a fleet that lists a conversation before its
// run starts sees it idle, at rest). It fails when ctx ends first or there
// is no such conversation.
func (s *Server) WaitStatus(ctx context.Context, id, status string) error {
	c := s.conversation(id)
	if c == nil {
		return fmt.Errorf("no conversation %s", id)
	}
	for {
		c.mu.Lock()
		had, now, sent := c.hadStatus[status], c.statusLocked(), c.statusSent
		c.mu.Unlock()
		if had {
			return nil
		}
		select {
		case <-sent:
		case <-ctx.Done():
			return fmt.Errorf("conversation %s is %s and has not been %s: %w", id, now, status, ctx.Err())
		}
	}
}

// Run restarts a conversation's playback clock, as POST /run does. It
// reports whether the conversation exists.
func (s *Server) Run(id string) bool {
	c := s.lookup(id)
	if c != nil {
		_ = c.run()
	}
	return c != nil
}

// conversation returns the conversation with this id (dashed or hex),
// silent or not.
func (s *Server) conversation(id string) *conversation {
	id = model.NormalizeConversationID(id)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.convs[id]
}

// lookup returns the conversation REST and new sockets may see: nil when
// it does not exist, has not started (Stagger) or has gone silent.
func (s *Server) lookup(id string) *conversation {
	c := s.conversation(id)
	if c == nil || c.hidden() {
		return nil
	}
	return c
}

// visible returns the conversations that have started and are not
// silent, newest first
// (CREATED_AT_DESC, the agent-server's default order), ties by id.
func (s *Server) visible() []*conversation {
	s.mu.Lock()
	all := make([]*conversation, 0, len(s.convs))
	for _, c := range s.convs {
		all = append(all, c)
	}
	s.mu.Unlock()
	out := all[:0]
	for _, c := range all {
		if !c.hidden() {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		ci, cj := out[i].createdAt(), out[j].createdAt()
		if !ci.Equal(cj) {
			return ci.After(cj)
		}
		return out[i].id < out[j].id
	})
	return out
}

// createdAt is the created_at the conversation reports.
func (c *conversation) createdAt() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.started
}

// touch records activity for /server_info's idle_time.
func (s *Server) touch() {
	s.mu.Lock()
	s.lastTouch = time.Now()
	s.mu.Unlock()
}
