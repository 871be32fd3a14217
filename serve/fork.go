package serve

import (
	"encoding/json"
	"errors"
	"slices"
	"time"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// A fork is a new conversation that starts as a copy of another, as POST
// /fork makes on the agent-server (openhands-sdk LocalConversation.fork):
// with from_event_id, the branch from the root to that event, HEAD there;
// without, every event of every branch, state updates included, HEAD where
// the source's is and forked_from_event_id null. Ids and bytes are
// unchanged, execution_status is idle, and ConversationInfo names where it
// came from. The copy stays idle until /run or a message sent with run: then it
// goes on with what the recording did after the fork point, under new ids
// derived from the fork's, stamped from the fork's time on: the replay's
// stand-in for the agent running again from there. A fork at the last
// event has nothing recorded to go on with: Options.Continue, when set,
// makes up what it does.

// forkOrigin says where a forked conversation came from.
type forkOrigin struct {
	conversation string // the source's dashed id
	event        string // the event forked at; "" for a whole fork
	title        string // the title the fork was given ("" for none)
	// tags are the state's tags: the request's, and the title as
	// tags.title (LocalConversation.fork: "Copy title via tags").
	tags json.RawMessage
}

// forkRequest is the body of POST /{id}/fork (ForkConversationRequest).
type forkRequest struct {
	ID           *string           `json:"id"`
	Title        *string           `json:"title"`
	Tags         map[string]string `json:"tags"`
	ResetMetrics *bool             `json:"reset_metrics"`
	FromEventID  *string           `json:"from_event_id"`
}

// forkTags are a fork's tags: the request's, with the title as
// tags.title.
func forkTags(req forkRequest, title string) json.RawMessage {
	tags := map[string]string{}
	for k, v := range req.Tags {
		tags[sanitize.Line(k)] = sanitize.Line(v)
	}
	if req.Title != nil {
		tags["title"] = title
	}
	return mustJSON(tags)
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
	whole := req.FromEventID == nil
	from := src.tree.head
	if !whole {
		from = *req.FromEventID
	}
	path, ok := src.pathLocked(from)
	if !ok && (from != "" || !whole) {
		src.mu.Unlock()
		return nil, errUnknownEvent
	}
	// The recording goes on after HEAD's branch, whichever is copied.
	rest := src.continuationLocked(path)
	copied, head := path, forkHead{id: from}
	if whole {
		copied = slices.Clone(src.emitted)
		head = forkHead{id: src.tree.head, detached: src.tree.detached}
	}
	at := src.nowLocked()
	var stats []byte
	if req.ResetMetrics != nil && !*req.ResetMetrics {
		stats = stateUpdateJSON(at, "stats", src.statsLocked(src.tmpl.dynamic["stats"]))
	}
	origin := &forkOrigin{conversation: src.dashedID}
	if !whole {
		origin.event = from
	}
	src.mu.Unlock()
	if req.Title != nil {
		origin.title = sanitize.Line(*req.Title)
	}
	origin.tags = forkTags(req, origin.title)

	events := forkRest(rest, id, at)
	if len(events) == 0 && s.opts.Continue != nil {
		events = s.opts.Continue(at.Add(time.Second))
	}
	nc := newConversation(id, src.base, events, &s.opts, s.faults, s.log)
	nc.fork = origin
	nc.clock = newClock(true)
	nc.seed(copied, head, at, stats)
	s.convs[id] = nc
	s.order = append(s.order, nc)
	s.log.Info("conversation forked", "conversation", id, "from", src.id, "event", origin.event, "copied", len(copied), "to replay", len(rest))
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

// forkHead is the HEAD a fork starts at: from_event_id, or the source's
// for a whole fork (LocalConversation.fork sets leaf_event_id so).
type forkHead struct {
	id       string
	detached bool // HEAD was navigated to none
}

// seed makes the fork hold the copied events as already emitted, with HEAD
// where head says, the reported stats (nil after reset_metrics),
// execution_status idle whatever status updates were copied, and the
// fork's time as its creation. /run (or a message sent with run) starts
// the replay of the continuation with execution_status running; with
// nothing to continue, the fork stays idle.
func (c *conversation) seed(copied []model.Event, head forkHead, at time.Time, stats []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, ev := range copied {
		c.emitLocked(ev, false)
	}
	t := &c.tree
	t.head, t.detached = head.id, head.detached
	// The continuation goes on from HEAD, not from the newest branch.
	t.recHead, t.lastRec = head.id, head.id
	c.sentStatus = model.StatusIdle
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
