package serve

import (
	"errors"
	"time"

	"ohwatch/model"
)

// A fork is a new conversation that starts as a copy of one branch of
// another, as POST /fork makes on the agent-server: the events from the
// root to the fork point (their ids and bytes unchanged), HEAD at the fork
// point, execution_status idle, and ConversationInfo naming where it came
// from. The copy stays idle until /run or a message sent with run: then it
// goes on with what the recording did after the fork point, under new ids
// derived from the fork's, stamped from the fork's time on: the replay's
// stand-in for the agent running again from there. A fork at the last
// event has nothing recorded to go on with: Options.Continue, when set,
// makes up what it does.

// forkOrigin says where a forked conversation came from.
type forkOrigin struct {
	conversation string // the source's dashed id
	event        string // the event forked at
	title        string // the title the fork was given ("" for none)
}

// forkRequest is the body of POST /{id}/fork (ForkConversationRequest).
type forkRequest struct {
	ID           *string `json:"id"`
	Title        *string `json:"title"`
	ResetMetrics *bool   `json:"reset_metrics"`
	FromEventID  *string `json:"from_event_id"`
}

// errForkExists is fork's answer when the id asked for is taken (409).
var errForkExists = errors.New("a conversation with this id already exists")

// fork makes the fork of src the request describes, adds it (visible at
// once, idle) and starts its player, held until /run.
func (s *Server) fork(src *conversation, req forkRequest) (*conversation, error) {
	id := model.NormalizeConversationID(newUUID())
	if req.ID != nil && *req.ID != "" {
		id = model.NormalizeConversationID(*req.ID)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, taken := s.convs[id]; taken {
		return nil, errForkExists
	}
	if s.closed {
		return nil, errors.New("the server is closing")
	}
	src.mu.Lock()
	from := src.tree.head
	if req.FromEventID != nil {
		from = *req.FromEventID
	}
	path, ok := src.pathLocked(from)
	if !ok && from != "" {
		src.mu.Unlock()
		return nil, errUnknownEvent
	}
	rest := src.continuationLocked(path)
	at := src.nowLocked()
	var stats []byte
	if req.ResetMetrics != nil && !*req.ResetMetrics {
		stats = stateUpdateJSON(at, "stats", src.statsLocked(src.tmpl.dynamic["stats"]))
	}
	origin := &forkOrigin{conversation: src.dashedID, event: from}
	src.mu.Unlock()
	if req.Title != nil {
		origin.title = model.SanitizeLine(*req.Title)
	}

	events := forkRest(rest, id, at)
	if len(events) == 0 && s.opts.Continue != nil {
		events = s.opts.Continue(at.Add(time.Second))
	}
	nc := newConversation(id, src.base, events, &s.opts, s.faults, s.log)
	nc.fork = origin
	nc.clock = newClock(true)
	nc.seed(path, at, stats)
	s.convs[id] = nc
	s.order = append(s.order, nc)
	s.log.Info("conversation forked", "conversation", id, "from", src.id, "event", from, "copied", len(path), "to replay", len(rest))
	s.players.Add(1)
	go func() {
		defer s.players.Done()
		nc.play(s.ctx, &s.opts)
	}()
	return nc, nil
}

// continuationLocked is what the recording did after the branch path: the
// recorded events after the last recorded event on it (all of them when
// none is recorded, as for an empty path); nothing when the agent did
// nothing more there (state updates only: the run's last status).
func (c *conversation) continuationLocked(path []model.Event) []model.Event {
	rest := c.recordedAfterLocked(path)
	for _, ev := range rest {
		if treeEvent(ev) {
			return rest
		}
	}
	return nil
}

// recordedAfterLocked is the recording after the last recorded event of
// path.
func (c *conversation) recordedAfterLocked(path []model.Event) []model.Event {
	at := make(map[string]int, len(c.recorded))
	for i, ev := range c.recorded {
		if ev.ID != "" {
			at[ev.ID] = i
		}
	}
	for i := len(path) - 1; i >= 0; i-- {
		if k, ok := at[path[i].ID]; ok {
			return c.recorded[k+1:]
		}
	}
	if len(path) > 0 {
		return nil // only events the server made up: nothing recorded follows
	}
	return c.recorded
}

// forkRest relabels the continuation as the fork's own events: new ids
// derived from the fork's (references among them follow; references to the
// copied branch stay), the first a second after the fork.
func forkRest(rest []model.Event, id string, at time.Time) []model.Event {
	if len(rest) == 0 {
		return nil
	}
	var shift time.Duration
	for _, ev := range rest {
		if !ev.Time.IsZero() {
			if d := at.Add(time.Second).Sub(ev.Time); d > 0 {
				shift = d.Truncate(time.Microsecond)
			}
			break
		}
	}
	return newRelabeler(rest, id, shift).events(rest)
}

// seed makes the fork hold the copied branch as already emitted, with HEAD
// at its end, the reported stats (nil after reset_metrics) and the fork's
// time as its creation. /run (or a message sent with run) starts the
// replay of the continuation with execution_status running; with nothing to
// continue, the fork stays idle.
func (c *conversation) seed(path []model.Event, at time.Time, stats []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ev := range path {
		c.emitLocked(ev, false)
	}
	c.derived = c.state.Status
	c.statsEvent = stats
	c.created = at
	c.lastRecorded, c.lastEmitAt, c.lastStamp = at, time.Now(), at
	if len(c.recorded) == 0 {
		c.done = true
		return
	}
	c.pausedFrom = model.StatusRunning
}
