package serve

import (
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"time"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
)

// conversation is one recorded conversation being replayed: the recording,
// what of it has been emitted so far (all that REST and the socket may
// see), the state the reducer derives from that, and the live subscribers.
type conversation struct {
	id       string // normalised: 32 lowercase hex
	dashedID string
	base     *model.BaseState
	recorded []model.Event
	// statusEvents is true when the recording carries per-field
	// execution_status updates; otherwise the end of a run is inferred.
	statusEvents bool
	// statsEvents is true when the recording carries per-field stats.
	statsEvents bool
	created     time.Time

	speed  float64
	clock  *clock
	faults *faultState
	log    *slog.Logger
	// decisions carries a respond_to_confirmation to the player while it
	// holds at waiting_for_confirmation.
	decisions chan decision

	// tmpl is the reported state's unchanging part, built once.
	tmpl *template

	mu      sync.Mutex
	emitted []model.Event  // persisted events, in emission order
	index   map[string]int // event id → position in emitted
	// state is the reducer's fold of what was emitted, minus the status
	// updates the server made up, so that for a recording without status
	// updates it keeps inferring the status from the content.
	state reducer.State
	// sentStatus is the execution_status the latest per-field update sent
	// said: what a client that reads only those updates believes, and what
	// the snapshot and ConversationInfo report.
	sentStatus string
	// derived is state.Status when it was last compared, so that only a
	// status the reducer newly derives is sent.
	derived string
	// rejected holds the ids of rejected actions (and their tool call ids)
	// whose recorded results must not go out.
	rejected map[string]bool
	// branches are recorded continuations, by action id, that replace the
	// rest of the recording when that action is rejected.
	branches map[string][]model.Event
	// statsEvent is the latest per-field stats update; its value is read
	// only when a snapshot or ConversationInfo needs it, with the per-call
	// lists (stats.go) added once per update.
	statsEvent []byte
	statsFull  struct {
		of    []byte // the statsEvent value was made from
		value json.RawMessage
	}
	// baseFull is the base's stats as reported (max_budget_per_task
	// restored), made when first needed.
	baseFull json.RawMessage
	// lists are base_state.json's per-call lists, read when first needed.
	lists     map[string]*callLists
	listsRead bool
	stale     [][]byte // emitted per-field state updates, for Faults.StaleState
	subs      map[*subscriber]struct{}
	// snapshots counts the snapshots built: each copies the base state,
	// so none is built for no one.
	snapshots int
	silent    bool
	// statusSent is closed, and made anew, each time a status is sent, and
	// hadStatus holds every status sent so far (WaitStatus).
	statusSent chan struct{}
	hadStatus  map[string]bool
	// holds is whether the replay holds at waiting_for_confirmation
	// (Options.ConfirmHold); holding is set in the step that emits that
	// status, so a decision that comes before the player reaches hold is
	// kept for it rather than lost.
	holds   bool
	holding bool
	done    bool // every recorded event has been emitted
	// playedOut is set when the player has nothing more to do.
	playedOut bool
	next      int // index of the next recorded event
	// pausedFrom is the status /pause replaced, restored by /run; "" when
	// the clock was not paused by /pause.
	pausedFrom string
	// lastRecorded and lastEmitAt anchor the recording's clock: the
	// timestamp of the latest recorded event and the wall time it went out.
	lastRecorded time.Time
	lastEmitAt   time.Time
	lastStamp    time.Time // latest timestamp handed out or emitted
	// started is the wall time the conversation started (was created,
	// or became visible after a delayed start), and active the wall time
	// of the latest emitted event (also /server_info's idle_time): the
	// created_at and updated_at a real server would report for a
	// conversation running now, where the recording's own dates would
	// make one that just started look idle for months.
	started time.Time
	active  time.Time
	// title is made from the first user message, for a recording whose
	// base state has no title.
	title string
	// pending is true until a conversation whose start was delayed
	// (Options.Stagger, a Loop restart) starts: REST and the search do not
	// see it before.
	pending bool
	// origin is what a Loop restart makes the next run from; nil for a
	// fork, which does not loop.
	origin *origin
	// tree is HEAD and what placing the next event in the tree needs.
	tree tree
	// fork says where a forked conversation came from; nil for others.
	fork *forkOrigin
	// policy is the confirmation policy set over REST; nil leaves the
	// waits to the recording.
	policy *policy
	// onHoldPassed is Options.OnHoldPassed.
	onHoldPassed func(conversation string, hold time.Duration)
}

// decision is a respond_to_confirmation request.
type decision struct {
	accept bool
	reason string
	// applied: the rejection was already emitted (a superseding message,
	// which must come after it); the hold only ends.
	applied bool
	// answer is a respond_to_ask_user instead, nil for a confirmation.
	answer *askAnswer
}

func newConversation(id string, base *model.BaseState, events []model.Event, opts *Options, faults *faultState, log *slog.Logger) *conversation {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &conversation{
		id:        id,
		dashedID:  model.DashedConversationID(id),
		base:      base,
		recorded:  append([]model.Event(nil), events...),
		speed:     opts.Speed,
		holds:     opts.ConfirmHold != 0,
		clock:     newClock(opts.StartPaused),
		faults:    faults,
		log:       log,
		decisions: make(chan decision, 1),
		index:     make(map[string]int),
		state:     initialState(base),
		emitted:   make([]model.Event, 0, len(events)),
		subs:      make(map[*subscriber]struct{}),
		rejected:  make(map[string]bool),
		branches:  make(map[string][]model.Event),
		tree:      tree{parents: make(map[string]string)},
	}
	c.sentStatus, c.derived = model.StatusIdle, model.StatusIdle
	c.statusSent = make(chan struct{})
	c.hadStatus = map[string]bool{model.StatusIdle: true}
	c.onHoldPassed = opts.OnHoldPassed
	c.tmpl = newTemplate(base, c.dashedID)
	for _, ev := range c.recorded {
		if u, ok := ev.Body.(*model.StateUpdate); ok && !u.FullState {
			c.statusEvents = c.statusEvents || u.ExecutionStatus != ""
			c.statsEvents = c.statsEvents || u.Key == "stats"
		}
		if c.created.IsZero() && !ev.Time.IsZero() {
			c.created = ev.Time
		}
	}
	c.started = time.Now().UTC()
	if c.created.IsZero() {
		c.created = c.started
	}
	return c
}

// nowLocked is the recording's clock: the timestamp of the latest recorded
// event plus the wall time since, times Speed, kept after every timestamp
// handed out and, where it can be, not past the next recorded event, so
// made-up events sort among the recorded ones.
func (c *conversation) nowLocked() time.Time {
	var t time.Time
	if c.lastRecorded.IsZero() {
		t = time.Now().UTC()
		if c.next < len(c.recorded) && !c.recorded[c.next].Time.IsZero() {
			t = c.recorded[c.next].Time
		}
	} else {
		t = c.lastRecorded
		if c.speed > 0 && !c.clock.isPaused() {
			t = t.Add(time.Duration(float64(time.Since(c.lastEmitAt)) * c.speed))
		}
	}
	if !t.After(c.lastStamp) && !c.lastStamp.IsZero() {
		t = c.lastStamp.Add(time.Microsecond)
	}
	if c.next < len(c.recorded) {
		if nt := c.recorded[c.next].Time; !nt.IsZero() && t.After(nt) {
			t = maxTime(nt, c.lastStamp)
		}
	}
	c.lastStamp = t
	return t
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// emitLocked makes ev exist: it is applied to the state (unless it is a
// status update the server made up: see conversation.state), stored when
// the agent-server would persist it, and sent to every subscriber.
func (c *conversation) emitLocked(ev model.Event, madeUp bool) {
	if c.silent {
		return
	}
	c.active = time.Now().UTC()
	ev = c.placeLocked(ev, madeUp)
	u, isUpdate := ev.Body.(*model.StateUpdate)
	sentStatus := isUpdate && !u.FullState && u.ExecutionStatus != ""
	if !(madeUp && sentStatus) {
		c.state = reducer.Apply(c.state, ev)
	}
	if sentStatus {
		c.sentStatus = u.ExecutionStatus
		c.hadStatus[u.ExecutionStatus] = true
		close(c.statusSent)
		c.statusSent = make(chan struct{})
	}
	if ev.Time.After(c.lastStamp) {
		c.lastStamp = ev.Time
	}
	if isUpdate && !u.FullState {
		if u.Key == "stats" {
			c.statsEvent = ev.Raw
		}
		c.stale = append(c.stale, ev.Raw)
	}
	if c.title == "" && ev.Kind == model.KindMessage && ev.Source == "user" {
		c.title = titleFrom(messageText(ev.Raw))
	}
	seq := -1 // not in the log: transient on a session socket
	if model.Persisted(ev) {
		if _, dup := c.index[ev.ID]; !dup && ev.ID != "" {
			c.index[ev.ID] = len(c.emitted)
		}
		seq = len(c.emitted)
		c.emitted = append(c.emitted, ev)
	}
	for sub := range c.subs {
		sub.sendEvent(seq, ev.Raw)
	}
	if n := c.faults.silentAfter(); n > 0 && len(c.emitted) >= n && !c.silent {
		c.silent = true
		c.log.Info("conversation went silent (fault)", "conversation", c.id, "events", len(c.emitted))
	}
}

// titleMax is the length, in runes, of a title made from a message.
const titleMax = 50

// titleFrom makes a conversation title from the first user message, as
// the agent-server's fallback does: its first line, shortened.
func titleFrom(text string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	line := []rune(sanitize.Line(strings.TrimSpace(first)))
	if len(line) > titleMax {
		return strings.TrimSpace(string(line[:titleMax-1])) + "…"
	}
	return string(line)
}

// emitNewLocked decodes and emits an event the server made up. The
// server states the status such an event leads to itself, so what the
// reducer derives from it is taken as already sent.
func (c *conversation) emitNewLocked(raw []byte) {
	ev, err := model.Decode(raw)
	if err != nil {
		c.log.Error("made-up event does not decode", "conversation", c.id, "err", err)
		return
	}
	c.emitLocked(ev, true)
	c.derived = c.state.Status
}

// broadcastLocked sends a live-only frame the server made up (a snapshot)
// to every subscriber. The snapshot restates the state, so it is not
// applied to it.
func (c *conversation) broadcastLocked(raw []byte) {
	if c.silent {
		return
	}
	for sub := range c.subs {
		sub.sendEvent(-1, raw)
	}
}

// stateValue returns the `value` of a ConversationStateUpdateEvent.
func stateValue(raw []byte) json.RawMessage {
	var u struct {
		Value json.RawMessage `json:"value"`
	}
	if json.Unmarshal(raw, &u) != nil || len(u.Value) == 0 {
		return nil
	}
	return u.Value
}

// lastActive is the wall time of the latest emitted event (zero before
// the first).
func (c *conversation) lastActive() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.active
}

// isSilent reports whether the conversation has gone silent (fault).
func (c *conversation) isSilent() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.silent
}

// silence makes the conversation stop sending and vanish from REST while
// its sockets stay open, as a conversation deleted server-side does.
func (c *conversation) silence() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.silent = true
}

// events returns the persisted events emitted so far. The slice is shared:
// callers only read it.
func (c *conversation) events() []model.Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.emitted[:len(c.emitted):len(c.emitted)]
}

// position returns where the emitted event with this id is.
func (c *conversation) position(id string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.index[id]
	return i, ok
}

// event returns the emitted event with this id.
func (c *conversation) event(id string) (model.Event, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.index[id]
	if !ok {
		return model.Event{}, false
	}
	return c.emitted[i], true
}
