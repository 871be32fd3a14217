package serve

import (
	"time"

	"ohwatch/model"
)

// A fleet is many conversations live at once, as one agent-server hosting
// several runs is: Options.Stagger starts them one after another instead of
// all at the first instant, and Options.Loop starts a conversation again,
// as a new one, when its run ends, so the fleet never runs dry.

// origin is what a looped conversation is made again from: the recording
// as it was added (a rejection may have replaced the played one by a
// branch), its base state, its branches, and which run this is.
type origin struct {
	id       string // the first run's conversation id
	base     *model.BaseState
	recorded []model.Event
	run      int // 0 for the recording as added, n for its n-th restart
}

// startDelay is how long after the clocks start the i-th conversation
// added starts: Stagger times i.
func (s *Server) startDelay(i int) time.Duration {
	if s.opts.Stagger <= 0 {
		return 0
	}
	return time.Duration(i) * s.opts.Stagger
}

// loopPause is the wait between the end of a run and its restart: as long
// as the longest wait between two events (MaxGap/Speed), or Stagger when
// that is longer. It is never zero, so a recording whose events carry no
// timestamps does not restart in a tight loop.
func (s *Server) loopPause() time.Duration {
	return max(s.opts.Stagger, time.Duration(float64(MaxGap)/s.opts.Speed))
}

// looping reports whether finished runs start again. Without a pace
// (Speed 0) a run ends the instant it starts, so Loop is ignored.
func (s *Server) looping() bool { return s.opts.Loop && s.opts.Speed > 0 }

// run plays c once its start delay has passed and, with Loop, each
// restart after it, until the server closes. It is one goroutine per
// recording however many times it loops.
func (s *Server) run(c *conversation, delay time.Duration) {
	for c != nil {
		// A clock of its own: /pause cannot reach a conversation before
		// it starts, nor delay its start.
		if !newClock(false).wait(s.ctx, delay) {
			return
		}
		c.start()
		if delay > 0 {
			s.log.Info("conversation started", "conversation", c.id)
		}
		c.play(s.ctx, &s.opts)
		if !s.looping() || !c.finished() || c.isSilent() {
			return
		}
		c, delay = s.restart(c), s.loopPause()
	}
}

// restart adds the next run of c's recording as a new conversation, not
// yet started, and returns it (nil once the server has closed).
func (s *Server) restart(c *conversation) *conversation {
	o := c.origin
	next := &origin{id: o.id, base: o.base, recorded: o.recorded, run: o.run + 1}
	id := loopID(o.id, next.run)
	relabel := newRelabeler(o.recorded, id, loopShift(o.recorded, next.run))
	events := relabel.events(o.recorded)
	c.mu.Lock()
	branches := make(map[string][]model.Event, len(c.branches))
	for action, evs := range c.branches {
		branches[relabel.id(action)] = relabel.events(evs)
	}
	c.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	nc := newConversation(id, o.base, events, &s.opts, s.faults, s.log)
	nc.origin, nc.branches, nc.pending = next, branches, true
	nc.clock = newClock(false) // StartPaused holds the server's first start only
	s.convs[id] = nc
	s.order = append(s.order, nc)
	s.log.Info("conversation restarts as a new one (loop)", "conversation", id, "previous", c.id, "run", next.run)
	return nc
}

// start makes a conversation that waited for its start visible: until
// then REST answers 404 for it and the search does not list it, as for a
// conversation a real server has not created yet. Only a conversation
// that waited is created now: one listed from the beginning keeps its
// created_at, which orders the search, so a client
// paging through the search while the players start sees every
// conversation exactly once.
func (c *conversation) start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending {
		c.pending = false
		c.started = time.Now().UTC()
	}
}

// hidden reports whether REST and new sockets must not see the
// conversation: it has not started or has gone silent.
func (c *conversation) hidden() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending || c.silent
}
