package serve

import "ohwatch/model"

// supersededReason is the rejection upstream PR #5110 gives the pending
// actions a message supersedes (LocalConversation.send_message).
const supersededReason = "Superseded by a new user message"

// takeMessage appends a user message as the imitated server does while the
// conversation waits for confirmation: 1.43.1 takes it and, when the
// message runs the agent, run() approves the pending actions ("user
// approved"); with MessageSupersedes they are rejected first (PR #5110).
func (s *Server) takeMessage(c *conversation, message []byte, run bool) {
	waiting := c.waiting()
	if waiting && s.opts.MessageSupersedes {
		c.supersede()
	}
	c.appendUserMessage(message)
	if waiting && run && !s.opts.MessageSupersedes {
		c.respond(true, "")
	}
}

// supersede rejects the pending actions at once, so the message that
// supersedes them comes after the rejection, and ends a hold on them.
func (c *conversation) supersede() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.statusLocked() != model.StatusWaitingForConfirmation {
		return
	}
	c.rejectLocked(supersededReason)
	if c.holding {
		select {
		case c.decisions <- decision{applied: true}:
		default: // a decision is already on its way
		}
	}
}

// waiting reports whether the conversation waits for confirmation.
func (c *conversation) waiting() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.statusLocked() == model.StatusWaitingForConfirmation
}

// runAfterMessage lets a user message sent with run go on as the server
// would: a paused replay resumes; a replay that has played its recording
// out goes on with what Options.Continue makes up (a reply that says it is
// generated), since nothing was recorded after it.
func (s *Server) runAfterMessage(c *conversation) {
	c.mu.Lock()
	extend := c.done && s.opts.Continue != nil && !c.silent
	restart := false
	if extend {
		more := s.opts.Continue(c.nowLocked())
		c.recorded = append(c.recorded[:len(c.recorded):len(c.recorded)], more...)
		c.done = len(more) == 0
		restart = c.playedOut && !c.done
		c.playedOut = c.playedOut && c.done
		c.sendStatusLocked(model.StatusRunning)
	}
	c.mu.Unlock()
	_ = c.run() // already running: the message joins the run
	if restart {
		s.mu.Lock()
		closed := s.closed
		if !closed {
			s.players.Add(1)
		}
		s.mu.Unlock()
		if closed {
			return
		}
		go func() {
			defer s.players.Done()
			c.play(s.ctx, &s.opts)
		}()
	}
}

// resumeAt is the recorded event a player starts from: the first, or for
// a player started again after a message, the one after the last played.
func (c *conversation) resumeAt() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.next
}

// more reports whether recorded event i is still to be played; when not,
// the player is done, which is marked in the same step, so a message that
// extends the recording either finds the player still going or starts
// another.
func (c *conversation) more(i int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i < len(c.recorded) {
		return true
	}
	c.playedOut = true
	return false
}
