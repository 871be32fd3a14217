package fleet

import (
	"strings"
	"time"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
)

// Fleet is the derived state of every conversation of a fleet. It is not
// safe for concurrent use: one goroutine (the screen's Update, the headless
// loop) owns it.
type Fleet struct {
	entries map[model.ConversationRef]*entry
	order   []*entry // in order of first sight
	// sources are the sources that reported about themselves.
	sources  []*SourceState
	sourceAt map[sourceKey]*SourceState
	// titles counts the conversations under each title (SameTitle).
	titles map[string]int
}

// New returns an empty fleet.
func New() *Fleet {
	return &Fleet{entries: make(map[model.ConversationRef]*entry), titles: map[string]int{}}
}

// entry is one conversation: what its row and its attention mark are made
// of, and nothing of its events but their ids.
type entry struct {
	ref  model.ConversationRef
	seq  int // order of first sight, the last tie-break of every sort
	meta model.ConversationMeta
	// state is the fold of its events, nil until the first comes: a row
	// shown from its listing alone (most of a large account) keeps none,
	// and reads noEvents (st).
	state *reducer.State
	ids   model.IDSet
	dups  int

	conn     model.ConnState
	hasConn  bool
	runtime  model.Runtime
	warnings int
	progress model.Progress
	loading  bool // Progress says more is to come

	// listed is the usage the listing reports, summed once per listing
	// (reported false when it reports none); the listing's stats are not
	// kept.
	listed         model.ListedUsage
	listedReported bool

	lastEvent time.Time // the latest event time seen
	// firstEvent is the earliest event time seen: when the run started,
	// as far as its events say.
	firstEvent time.Time
	// liveAt is when the latest new event arrived once the history was
	// in (ApplyAt's clock; zero with Apply): a served or replayed run
	// carries its recorded times, yet it is active now.
	liveAt    time.Time
	firstUser string // the first user message, a title when none is listed

	// verdict is the status as the row states it (events, listing and
	// connection together), recomputed after every update.
	verdict reducer.Verdict
	// statusSince is the index of the event that moved the events' status
	// to its current value (-1: none), so a status seen once is told from
	// the same status reached again.
	statusSince int
	// settled turns true once the conversation's history is in (its
	// connection went past connecting, and any loading is complete): from
	// then on a status that needs a person is news.
	settled bool
	// noted is the status the person is taken to know: a terminal status
	// the conversation already had when it settled, or one marked Seen.
	noted      string
	notedSince int
}

// Len is the number of conversations.
func (f *Fleet) Len() int { return len(f.order) }

// Refs returns every conversation, in order of first sight.
func (f *Fleet) Refs() []model.ConversationRef {
	out := make([]model.ConversationRef, len(f.order))
	for i, e := range f.order {
		out[i] = e.ref
	}
	return out
}

// Change is what one slice of updates changed about a conversation: its
// status (as the row states it), or that it newly needs a person.
type Change struct {
	Ref   model.ConversationRef
	Title string
	// New is set the first time the conversation is seen.
	New bool
	// From and To are the verdicts before and after (From is the zero
	// Verdict for a new conversation).
	From, To reducer.Verdict
	// Raised is the reason the conversation newly needs a person, once
	// its history is in (NoAttention when it does not): what a bell and a
	// notification are for. The slice in which a conversation's history
	// comes in raises nothing.
	Raised Attention
}

// StatusChanged reports whether the stated status changed: its value, or
// whether a finished is final (a snapshot confirming a running says
// nothing new to a reader).
func (c Change) StatusChanged() bool {
	if c.From.Status != c.To.Status {
		return true
	}
	return c.To.Status == model.StatusFinished && c.From.Final() != c.To.Final()
}

// Apply folds a slice of updates, in order, and returns what changed, one
// Change per conversation whose status changed or that newly needs a
// person, in the order the conversations first appear in ups. An update
// whose Ref has no ID is about its source (Sources), not a conversation.
func (f *Fleet) Apply(ups []model.FleetUpdate) []Change { return f.ApplyAt(ups, time.Time{}) }

// ApplyAt is Apply for updates that arrived at the time at: a conversation
// whose history is in and that brings new events is active at that time,
// whatever times its events carry (the last activity of a row is the
// later of the two).
func (f *Fleet) ApplyAt(ups []model.FleetUpdate, at time.Time) []Change {
	type before struct {
		verdict reducer.Verdict
		attn    Attention
		isNew   bool
		settled bool
		title   string
	}
	var touched []*entry
	was := map[*entry]before{}
	for i := range ups {
		u := &ups[i]
		if u.Ref.ID == "" {
			f.applySource(u)
			continue
		}
		e, ok := f.entries[u.Ref]
		isNew := !ok
		if !ok {
			e = f.add(u.Ref)
		}
		if _, seen := was[e]; !seen {
			was[e] = before{verdict: e.verdict, attn: e.attention(), isNew: isNew, settled: e.settled, title: e.title()}
			touched = append(touched, e)
		}
		settled := e.settled
		if added := e.apply(u); added > 0 && settled && !at.IsZero() {
			e.liveAt = at
		}
	}
	var out []Change
	for _, e := range touched {
		b := was[e]
		title := e.title()
		if b.isNew || title != b.title {
			f.countTitle(b.title, -1, b.isNew)
			f.countTitle(title, 1, false)
		}
		c := Change{Ref: e.ref, Title: title, New: b.isNew, From: b.verdict, To: e.verdict}
		if a := e.attention(); a != NoAttention && a != b.attn && b.settled {
			c.Raised = a
		}
		if c.New || c.StatusChanged() || c.Raised != NoAttention {
			out = append(out, c)
		}
	}
	return out
}

// SameTitle is the number of conversations titled title: more than one
// when a run was started again (`serve --loop`, a retried task), whose
// rows a reader must tell apart by more than their title.
func (f *Fleet) SameTitle(title string) int { return f.titles[title] }

// countTitle adds n to the count of title; a new conversation had none.
func (f *Fleet) countTitle(title string, n int, isNew bool) {
	if isNew {
		return
	}
	if f.titles[title] += n; f.titles[title] <= 0 {
		delete(f.titles, title)
	}
}

func (f *Fleet) add(ref model.ConversationRef) *entry {
	e := &entry{ref: ref, seq: len(f.order), statusSince: -1, notedSince: -1}
	f.entries[ref] = e
	f.order = append(f.order, e)
	return e
}

// Seen marks the conversation's current status as known to the person: a
// finished, an error or a stuck no longer asks for attention until the
// status changes and comes back. Waiting for confirmation stays marked
// until it is answered.
func (f *Fleet) Seen(ref model.ConversationRef) {
	if e, ok := f.entries[ref]; ok {
		e.noted, e.notedSince = e.verdict.Status, e.statusSince
	}
}

// Row returns the conversation's row; ok is false for a conversation the
// fleet has never seen.
func (f *Fleet) Row(ref model.ConversationRef) (Row, bool) {
	e, ok := f.entries[ref]
	if !ok {
		return Row{}, false
	}
	return e.row(), true
}

// Children lists the conversations of ref's source whose listing names
// ref as the one they were forked from or delegated by, in the order the
// fleet first saw them.
func (f *Fleet) Children(ref model.ConversationRef) []Row {
	var out []Row
	for _, e := range f.order {
		if e.meta.ParentID == ref.ID && ref.ID != "" && e.ref.Source == ref.Source && e.ref.Kind == ref.Kind && e.ref != ref {
			out = append(out, e.row())
		}
	}
	return out
}

// State returns the conversation's derived state after its latest event.
func (f *Fleet) State(ref model.ConversationRef) (reducer.State, bool) {
	e, ok := f.entries[ref]
	if !ok {
		return reducer.State{}, false
	}
	return *e.st(), true
}

// noEvents is the state of every entry no event has reached; read only.
var noEvents = reducer.Initial(nil, 0)

// st is the entry's state, noEvents before its first event. Callers only
// read it.
func (e *entry) st() *reducer.State {
	if e.state == nil {
		return &noEvents
	}
	return e.state
}

// apply folds one update into the entry and returns how many new events
// it brought.
func (e *entry) apply(u *model.FleetUpdate) (added int) {
	if u.Meta != nil {
		e.meta = cloneMeta(*u.Meta)
		lu := e.meta.Usage
		if lu == nil {
			lu = reducer.ListedUsageOf(e.meta.Stats)
		}
		e.listed, e.listedReported = model.ListedUsage{}, lu != nil
		if lu != nil {
			e.listed = *lu
		}
		e.meta.Stats, e.meta.Usage = nil, nil // summed into e.listed
	}
	b := &u.Batch
	for _, ev := range b.Events {
		if !e.ids.Add(ev.ID) {
			e.dups++
			continue
		}
		added++
		if e.state == nil {
			s := reducer.Initial(nil, 0)
			e.state = &s
		}
		*e.state = reducer.Apply(*e.state, ev)
		if ev.Time.After(e.lastEvent) {
			e.lastEvent = ev.Time
		}
		if !ev.Time.IsZero() && (e.firstEvent.IsZero() || ev.Time.Before(e.firstEvent)) {
			e.firstEvent = ev.Time
		}
		if e.firstUser == "" && ev.Source == "user" {
			if _, ok := ev.Body.(*model.Message); ok && ev.Summary != "" {
				// The summary says "user: …"; a title needs only the words,
				// and not all of them.
				e.firstUser = titleOf(strings.TrimPrefix(sanitize.Line(ev.Summary), "user: "))
			}
		}
	}
	if len(b.Events) > 0 {
		e.statusSince = -1
		if t := e.st().LastTransitions(1); len(t) == 1 {
			e.statusSince = t[0].Index
		}
	}
	if b.Conn != nil {
		e.conn = *b.Conn
		e.conn.Reason = strings.Clone(e.conn.Reason)
		e.hasConn = true
	}
	if b.Runtime != nil {
		e.runtime = *b.Runtime
	}
	e.warnings += len(b.Warnings)
	if b.Progress != nil {
		e.progress = *b.Progress
		e.loading = b.Progress.Total > 0 && b.Progress.Done < b.Progress.Total
	}
	e.verdict = e.stated()
	if !e.settled {
		// A finished that was already true before the history was in is
		// not news (a root of a thousand finished conversations would
		// otherwise all ask for attention). An error or a stuck is, until
		// it is seen.
		if e.verdict.Status == model.StatusFinished {
			e.noted, e.notedSince = e.verdict.Status, e.statusSince
		}
		// A source that reports no connection state settles with its
		// first events; the update that settles is still history.
		if e.hasConn {
			e.settled = e.conn.Phase != model.PhaseConnecting && !e.loading
		} else {
			e.settled = len(b.Events) > 0 && !e.loading
		}
	}
	return added
}

// titleLimit is the most runes of a first message kept as a title, about
// what a server's own titles hold.
const titleLimit = 60

// titleOf is a copy of text cut to titleLimit runes, "…" marking a cut.
func titleOf(text string) string {
	n := 0
	for i := range text {
		if n == titleLimit {
			return text[:i] + "…"
		}
		n++
	}
	return strings.Clone(text)
}

// cloneMeta copies a listing's strings, so that no string of it keeps a
// source's buffer alive.
func cloneMeta(m model.ConversationMeta) model.ConversationMeta {
	m.Title = strings.Clone(m.Title)
	m.Status = strings.Clone(m.Status)
	m.ParentID = strings.Clone(m.ParentID)
	m.ForkedFromEvent = strings.Clone(m.ForkedFromEvent)
	m.StatusSource = strings.Clone(m.StatusSource)
	return m
}

// stated is the status the row states, by the rule every surface uses
// (reducer.Verdict): the events decide; a conversation whose events never
// set a status (none arrived yet, a paused sandbox's) is stated by its
// listing; a provisional finished that the listing also reports finished
// is confirmed by it, as the headless watch confirms one by asking REST.
// A source that says nothing more will come (PhaseDone) has ended, and its
// last status is final: for a recording with a server's base_state.json,
// the status that file states, as every surface that folds the whole
// recording states it (base_state.json describes the end of the log). A
// conversation shown from its listing alone (PhaseListed) is stated by it.
func (e *entry) stated() reducer.Verdict {
	ended := e.hasConn && e.conn.Phase == model.PhaseDone
	ms := sanitize.Line(e.meta.Status)
	if e.hasConn && e.conn.Phase == model.PhaseListed && ms != "" && e.ref.Kind == model.SourceLocal {
		// A local conversation at rest shown from its summary is a
		// recording whose summary settled its last status: final, as a
		// whole read states it.
		if v, ok := reducer.BaseVerdict(&model.BaseState{ExecutionStatus: ms}); ok && e.meta.BaseStatus {
			return v
		}
		src := reducer.SourceBaseState
		if e.meta.StatusSource != "" {
			src = reducer.StatusSource(sanitize.Line(e.meta.StatusSource))
		}
		return reducer.Verdict{Status: ms, Source: src, Confirmed: ms == model.StatusFinished, Recorded: true}
	}
	if e.hasConn && e.conn.Phase == model.PhaseListed && ms != "" {
		// Shown from the listing, with no stream: the listing, asked
		// at every interval, is newer than the events, if any came. A
		// server's listing states its status (REST, not an inference),
		// so an idle or paused one is at rest and a finished is final.
		return reducer.Verdict{Status: ms, Source: e.listingSource(),
			Confirmed: ms == model.StatusFinished || e.ref.Kind != model.SourceLocal}
	}
	if ended && e.meta.BaseStatus && ms != "" {
		if v, ok := reducer.BaseVerdict(&model.BaseState{ExecutionStatus: ms}); ok {
			return v
		}
	}
	st := e.st()
	if st.StatusAt < 0 {
		if ms == "" {
			if st.Applied == 0 {
				return reducer.Verdict{Recorded: ended}
			}
			return st.Verdict(ended)
		}
		return reducer.Verdict{Status: ms, Source: e.listingSource(), Confirmed: ms == model.StatusFinished, Recorded: ended}
	}
	v := st.Verdict(ended)
	if v.Status == model.StatusFinished && !v.Final() && ms == model.StatusFinished && !e.meta.UpdatedAt.Before(e.lastEvent) {
		v.Confirmed, v.Source = true, e.listingSource()
	}
	return v
}

// listingSource is the provenance of a status read from a listing: a
// local conversation's base_state.json, a server's REST answer.
func (e *entry) listingSource() reducer.StatusSource {
	if e.ref.Kind == model.SourceLocal {
		return reducer.SourceBaseState
	}
	return reducer.SourceREST
}
