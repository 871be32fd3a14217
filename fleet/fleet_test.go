package fleet

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"ohwatch/format"
	"ohwatch/model"
	"ohwatch/reducer"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// conv builds the updates of one conversation by hand.
type conv struct {
	ref model.ConversationRef
	n   int
}

func newConv(source, id string) *conv {
	return &conv{ref: model.ConversationRef{Source: source, Kind: model.SourceServer, ID: id}}
}

func (c *conv) ev(kind, source string, body model.Body) model.Event {
	c.n++
	return model.Event{Kind: kind, ID: fmt.Sprintf("%s-e%d", c.ref.ID, c.n), Time: t0.Add(time.Duration(c.n) * time.Second),
		Source: source, Body: body, Summary: kind}
}

func (c *conv) user(text string) model.Event {
	ev := c.ev("MessageEvent", "user", &model.Message{Role: "user"})
	ev.Summary = text
	return ev
}

func (c *conv) status(v string) model.Event {
	return c.ev("ConversationStateUpdateEvent", "environment", &model.StateUpdate{Key: "execution_status", ExecutionStatus: v})
}

func (c *conv) snapshot(v string) model.Event {
	return c.ev("ConversationStateUpdateEvent", "environment", &model.StateUpdate{Key: "full_state", FullState: true, ExecutionStatus: v})
}

func (c *conv) action(risk string) model.Event {
	return c.ev("ActionEvent", "agent", &model.Action{ActionKind: "TerminalAction", ToolName: "terminal", ToolCallID: fmt.Sprint("call", c.n), SecurityRisk: risk})
}

func (c *conv) events(evs ...model.Event) model.FleetUpdate {
	return model.FleetUpdate{Ref: c.ref, Batch: model.Batch{Events: evs}}
}

func (c *conv) conn(p model.Phase) model.FleetUpdate {
	return model.FleetUpdate{Ref: c.ref, Batch: model.Batch{Conn: &model.ConnState{Phase: p}}}
}

func (c *conv) meta(m model.ConversationMeta) model.FleetUpdate {
	return model.FleetUpdate{Ref: c.ref, Meta: &m}
}

// live brings a conversation past its history: connected, a first run.
func (c *conv) live(f *Fleet) {
	f.Apply([]model.FleetUpdate{c.conn(model.PhaseConnecting), c.events(c.user("do it"), c.status("running")), c.conn(model.PhaseLive)})
}

func TestAttention(t *testing.T) {
	f := New()
	c := newConv("s", "a")
	c.live(f)
	if r, _ := f.Row(c.ref); r.Attn != NoAttention || r.Verdict.Status != "running" {
		t.Fatalf("running: %+v", r)
	}
	ch := f.Apply([]model.FleetUpdate{c.events(c.action("HIGH"), c.status("waiting_for_confirmation"))})
	if len(ch) != 1 || ch[0].Raised != AttnConfirm || !ch[0].StatusChanged() || ch[0].To.Status != "waiting_for_confirmation" {
		t.Fatalf("changes %+v", ch)
	}
	if r, _ := f.Row(c.ref); r.Pending != 1 || ColPending.Text(r, t0) != "1" {
		t.Fatalf("pending %d", r.Pending)
	}
	f.Seen(c.ref)
	if r, _ := f.Row(c.ref); r.Attn != AttnConfirm {
		t.Fatal("seeing a confirmation does not answer it")
	}
	f.Apply([]model.FleetUpdate{c.events(c.status("running"))})
	if r, _ := f.Row(c.ref); r.Attn != NoAttention || r.Pending != 0 {
		t.Fatalf("after the answer: %+v", r)
	}
	ch = f.Apply([]model.FleetUpdate{c.events(c.snapshot("finished"))})
	if len(ch) != 1 || ch[0].Raised != AttnFinished || !ch[0].To.Confirmed {
		t.Fatalf("finished: %+v", ch)
	}
	f.Seen(c.ref)
	if r, _ := f.Row(c.ref); r.Attn != NoAttention {
		t.Fatal("a finished that was seen still asks for attention")
	}
	// A new run that finishes again is news again.
	f.Apply([]model.FleetUpdate{c.events(c.user("more"), c.status("running"))})
	ch = f.Apply([]model.FleetUpdate{c.events(c.snapshot("finished"))})
	if len(ch) != 1 || ch[0].Raised != AttnFinished {
		t.Fatalf("second finish: %+v", ch)
	}
	// An error and a stuck ask until seen.
	for _, st := range []string{"error", "stuck"} {
		f.Apply([]model.FleetUpdate{c.events(c.user("again"), c.status("running"))})
		ch = f.Apply([]model.FleetUpdate{c.events(c.status(st))})
		want := map[string]Attention{"error": AttnError, "stuck": AttnStuck}[st]
		if len(ch) != 1 || ch[0].Raised != want {
			t.Fatalf("%s: %+v", st, ch)
		}
		f.Seen(c.ref)
		if r, _ := f.Row(c.ref); r.Attn != NoAttention {
			t.Fatalf("%s seen: %v", st, r.Attn)
		}
	}
}

func TestAttentionHistoryIsNotNews(t *testing.T) {
	f := New()
	done, failed := newConv("s", "done"), newConv("s", "failed")
	ch := f.Apply([]model.FleetUpdate{
		done.conn(model.PhaseConnecting), done.events(done.user("x"), done.snapshot("finished")), done.conn(model.PhaseLive),
		failed.conn(model.PhaseConnecting), failed.events(failed.user("y"), failed.status("error")), failed.conn(model.PhaseLive),
	})
	for _, c := range ch {
		if c.Raised != NoAttention || !c.New {
			t.Fatalf("history raised %+v", c)
		}
	}
	if r, _ := f.Row(done.ref); r.Attn != NoAttention {
		t.Fatalf("a conversation finished before it was watched asks for attention: %v", r.Attn)
	}
	if r, _ := f.Row(failed.ref); r.Attn != AttnError {
		t.Fatalf("an error in the history is still to be seen: %v", r.Attn)
	}
	// A source without connection states settles with its first events.
	quiet := newConv("s", "quiet")
	f.Apply([]model.FleetUpdate{quiet.events(quiet.user("z"), quiet.status("finished"))})
	f.Apply([]model.FleetUpdate{quiet.events(quiet.user("again"), quiet.status("running"))})
	if ch := f.Apply([]model.FleetUpdate{quiet.events(quiet.status("finished"))}); len(ch) != 1 || ch[0].Raised != AttnFinished {
		t.Fatalf("finish after settling: %+v", ch)
	}
	// Loading with progress is history until it is complete.
	slow := newConv("s", "slow")
	f.Apply([]model.FleetUpdate{{Ref: slow.ref, Batch: model.Batch{Events: []model.Event{slow.user("a"), slow.status("running")},
		Conn: &model.ConnState{Phase: model.PhaseLive}, Progress: &model.Progress{Done: 1, Total: 2}}}})
	if r, _ := f.Row(slow.ref); !r.Loading {
		t.Fatal("not loading")
	}
	ch = f.Apply([]model.FleetUpdate{{Ref: slow.ref, Batch: model.Batch{Events: []model.Event{slow.status("finished")}, Progress: &model.Progress{Done: 2, Total: 2}}}})
	if len(ch) != 1 || ch[0].Raised != NoAttention {
		t.Fatalf("the end of a load raised %+v", ch)
	}
}

func TestListingStatesWhatEventsDoNot(t *testing.T) {
	f := New()
	c := newConv("cloud", "p")
	c.ref.Kind = model.SourceCloud
	stats := &model.Stats{UsageToMetrics: map[string]*model.Metrics{"agent": {ModelName: "m", AccumulatedCost: 0.5,
		Accumulated: model.TokenUsage{Prompt: 1000, Completion: 200}}}}
	f.Apply([]model.FleetUpdate{c.meta(model.ConversationMeta{Title: "Fix \x1b[31mthe bug", Status: "finished", Stats: stats,
		Paused: true, UpdatedAt: t0})})
	r, _ := f.Row(c.ref)
	if r.Verdict != (reducer.Verdict{Status: "finished", Source: reducer.SourceREST, Confirmed: true}) {
		t.Fatalf("verdict %+v", r.Verdict)
	}
	if r.Title != "Fix the bug" && strings.ContainsRune(r.Title, 0x1b) {
		t.Fatalf("title not sanitised: %q", r.Title)
	}
	if !r.MetricsReported || r.Tokens != 1200 || ColCost.Text(r, t0) != "$0.50" || ColConn.Text(r, t0) != "paused" {
		t.Fatalf("listing metrics %+v", r)
	}
	if ColSteps.Text(r, t0) != format.Unknown {
		t.Fatalf("steps of a conversation with no events: %q", ColSteps.Text(r, t0))
	}
	if got := ColIdle.Text(r, t0.Add(90*time.Second)); got != "1m30s" {
		t.Fatalf("idle %q", got)
	}
	// A provisional finished is confirmed by a listing that says so.
	d := newConv("srv", "d")
	f.Apply([]model.FleetUpdate{d.events(d.user("x"), d.status("running"), d.status("finished"))})
	if r, _ := f.Row(d.ref); r.Verdict.Final() || ColStatus.Text(r, t0) != "finished?" {
		t.Fatalf("per-field finished stated as %+v", r.Verdict)
	}
	f.Apply([]model.FleetUpdate{d.meta(model.ConversationMeta{Status: "finished", UpdatedAt: t0.Add(time.Hour)})})
	if r, _ := f.Row(d.ref); !r.Verdict.Confirmed || r.Verdict.Source != reducer.SourceREST {
		t.Fatalf("listing did not confirm: %+v", r.Verdict)
	}
	// An older listing does not confirm a newer run's finish.
	e := newConv("srv", "e")
	f.Apply([]model.FleetUpdate{e.meta(model.ConversationMeta{Status: "finished", UpdatedAt: t0}),
		e.events(e.user("x"), e.status("running"), e.status("finished"))})
	if r, _ := f.Row(e.ref); r.Verdict.Final() {
		t.Fatalf("a stale listing confirmed %+v", r.Verdict)
	}
	// Nothing known at all reads unknown.
	u := newConv("srv", "u")
	f.Apply([]model.FleetUpdate{u.conn(model.PhaseConnecting)})
	if r, _ := f.Row(u.ref); ColStatus.Text(r, t0) != format.Unknown || ColTokens.Text(r, t0) != format.Unknown ||
		ColIdle.Text(r, t0) != format.Unknown || ColActivity.Text(r, t0) != format.Unknown {
		t.Fatalf("unknown conversation reads %+v", r)
	}
}

func TestDedupeByID(t *testing.T) {
	f := New()
	c := newConv("s", "a")
	e1, e2 := c.user("x"), c.status("running")
	up := "0f0e0d0c-0b0a-4908-8706-0504030201ab"
	e3 := c.status("finished")
	e3.ID = up
	noid := c.ev("PauseEvent", "user", &model.Pause{})
	noid.ID = ""
	f.Apply([]model.FleetUpdate{c.events(e1, e2, e3, noid), c.events(e1, e2, e3)})
	e3b := e3
	e3b.ID = strings.ToUpper(up) // not the same spelling: a different id
	f.Apply([]model.FleetUpdate{c.events(noid, e3b)})
	r, _ := f.Row(c.ref)
	if r.Events != 6 || r.Duplicates != 3 {
		t.Fatalf("events %d duplicates %d", r.Events, r.Duplicates)
	}
}

// table builds a fleet of conversations in the given statuses.
func table(t *testing.T) (*Fleet, map[string]*conv) {
	t.Helper()
	f := New()
	cs := map[string]*conv{}
	for i, spec := range []struct{ source, id, title, status, parent string }{
		{"b", "run", "Refactor the cache", "running", ""},
		{"a", "wait", "Deploy", "waiting_for_confirmation", ""},
		{"a", "done", "Write docs", "finished", ""},
		{"b", "fork", "Refactor the cache (fork)", "running", "run"},
		{"b", "forkfork", "fork of fork", "idle", "fork"},
		{"a", "orphan", "Orphan", "paused", "gone"},
	} {
		c := newConv(spec.source, spec.id)
		c.n = i * 100
		cs[spec.id] = c
		f.Apply([]model.FleetUpdate{c.meta(model.ConversationMeta{Title: spec.title, ParentID: spec.parent}),
			c.conn(model.PhaseConnecting), c.events(c.user(spec.title), c.status("running")), c.conn(model.PhaseLive)})
		if spec.status != "running" {
			f.Apply([]model.FleetUpdate{c.events(c.status(spec.status))})
		}
	}
	return f, cs
}

func ids(rows []Row) string {
	var out []string
	for _, r := range rows {
		out = append(out, strings.Repeat(">", r.Depth)+r.Ref.ID)
	}
	return strings.Join(out, " ")
}

func TestRowsOrderFilterGroup(t *testing.T) {
	f, cs := table(t)
	tests := []struct {
		name   string
		q      Query
		groups []string
		rows   string
	}{
		{"by title", Query{Sort: ColTitle}, []string{"attention", ""}, "wait done orphan run >fork >>forkfork"},
		{"by title reversed", Query{Sort: ColTitle, Desc: true}, []string{"attention", ""}, "wait done run >fork >>forkfork orphan"},
		{"by activity", Query{Sort: ColActivity}, []string{"attention", ""}, "wait done run >fork >>forkfork orphan"},
		{"by idle", Query{Sort: ColIdle}, []string{"attention", ""}, "wait done orphan run >fork >>forkfork"},
		{"by status", Query{Sort: ColStatus}, []string{"attention", ""}, "wait done run >fork >>forkfork orphan"},
		{"by source", Query{Sort: ColTitle, BySource: true}, []string{"attention", "a", "b"}, "wait done orphan run >fork >>forkfork"},
		{"text", Query{Sort: ColTitle, Text: "CACHE"}, []string{""}, "run >fork"},
		{"text matches a child alone", Query{Sort: ColTitle, Text: "fork of"}, []string{""}, "forkfork"},
		{"status", Query{Sort: ColTitle, Status: "running"}, []string{""}, "run >fork"},
		{"attention", Query{Sort: ColTitle, Status: StatusAttention}, []string{"attention"}, "wait done"},
		{"none", Query{Text: "nothing like it"}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gs := f.Rows(tc.q)
			var names []string
			for _, g := range gs {
				names = append(names, g.Name)
			}
			if !slices.Equal(names, tc.groups) {
				t.Errorf("groups %q, want %q", names, tc.groups)
			}
			if got := ids(Flatten(gs)); got != tc.rows {
				t.Errorf("rows %q, want %q", got, tc.rows)
			}
		})
	}
	f.Seen(cs["done"].ref)
	if got := ids(Flatten(f.Rows(Query{Sort: ColTitle}))); got != "wait orphan run >fork >>forkfork done" {
		t.Errorf("after seen: %q", got)
	}
}

func TestRowsCycleIsNotLost(t *testing.T) {
	f := New()
	a, b := newConv("s", "a"), newConv("s", "b")
	f.Apply([]model.FleetUpdate{a.meta(model.ConversationMeta{Title: "a", ParentID: "b"}), b.meta(model.ConversationMeta{Title: "b", ParentID: "a"})})
	self := newConv("s", "self")
	f.Apply([]model.FleetUpdate{self.meta(model.ConversationMeta{Title: "self", ParentID: "self"})})
	if got := ids(Flatten(f.Rows(Query{}))); got != "a >b self" {
		t.Fatalf("rows %q", got)
	}
}

func TestEveryColumnSorts(t *testing.T) {
	f, _ := table(t)
	for _, c := range Columns() {
		for _, desc := range []bool{false, true} {
			rows := Flatten(f.Rows(Query{Sort: c, Desc: desc}))
			if len(rows) != 6 {
				t.Fatalf("%s: %d rows", c.Name(), len(rows))
			}
			if c.Name() == "?" || c.Text(rows[0], t0) == "" {
				t.Errorf("column %d has no name or text", c)
			}
		}
	}
}

func TestSourceUpdatesAreNotConversations(t *testing.T) {
	f := New()
	src := model.ConversationRef{Source: "http://s", Kind: model.SourceServer}
	ch := f.Apply([]model.FleetUpdate{
		{Ref: src, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Attempt: 2, Reason: "refused\x1b[2J"}}},
		{Ref: src, Batch: model.Batch{Warnings: []string{"a", "page 3 \x1b]0;x\x07failed"}}},
	})
	if len(ch) != 0 || f.Len() != 0 || len(f.Rows(Query{})) != 0 {
		t.Fatalf("a source update made a conversation: %+v", ch)
	}
	ss := f.Sources()
	if len(ss) != 1 || !ss[0].Troubled() || ss[0].Warnings != 2 || ss[0].Label() != "http://s" ||
		strings.ContainsRune(ss[0].LastWarning, 0x1b) || strings.ContainsRune(ss[0].Conn.Reason, 0x1b) {
		t.Fatalf("sources %+v", ss)
	}
	f.Apply([]model.FleetUpdate{{Ref: src, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}}})
	if f.Sources()[0].Troubled() {
		t.Fatal("a live source is troubled")
	}
}

func TestLiveActivityIsWhenEventsArrive(t *testing.T) {
	f := New()
	c := newConv("s", "a")
	now := t0.Add(100 * 24 * time.Hour) // the events carry times of long ago
	f.ApplyAt([]model.FleetUpdate{c.conn(model.PhaseConnecting), c.events(c.user("x"), c.status("running"))}, now)
	if r, _ := f.Row(c.ref); !r.LastActivity.Equal(t0.Add(2 * time.Second)) {
		t.Fatalf("history: last activity %v, want its events' time", r.LastActivity)
	}
	f.ApplyAt([]model.FleetUpdate{c.conn(model.PhaseLive), c.events(c.status("finished"))}, now)
	r, _ := f.Row(c.ref)
	if !r.LastActivity.Equal(now) {
		t.Fatalf("live: last activity %v, want when it arrived", r.LastActivity)
	}
	if got := ColIdle.Text(r, now.Add(5*time.Second)); got != "5.0s" {
		t.Fatalf("idle %q", got)
	}
	// A resend of what was already there is no activity.
	f.ApplyAt([]model.FleetUpdate{c.events(c.status("finished"))}, now.Add(time.Hour))
	c.n--
	f.ApplyAt([]model.FleetUpdate{c.events(c.status("finished"))}, now.Add(2*time.Hour))
	if r, _ := f.Row(c.ref); !r.LastActivity.Equal(now.Add(time.Hour)) {
		t.Fatalf("a duplicate moved the last activity to %v", r.LastActivity)
	}
}

func TestStatusChangedAndTitles(t *testing.T) {
	v := func(s string, confirmed bool) reducer.Verdict {
		return reducer.Verdict{Status: s, Confirmed: confirmed}
	}
	for _, tc := range []struct {
		from, to reducer.Verdict
		want     bool
	}{
		{v("running", false), v("running", true), false},
		{v("finished", false), v("finished", true), true},
		{v("running", false), v("finished", false), true},
		{v("", false), v("idle", false), true},
	} {
		if got := (Change{From: tc.from, To: tc.to}).StatusChanged(); got != tc.want {
			t.Errorf("%v -> %v changed %v", tc.from, tc.to, got)
		}
	}
	f := New()
	c := newConv("s", "long")
	f.Apply([]model.FleetUpdate{c.events(c.user("user: " + strings.Repeat("é", 100)))})
	if r, _ := f.Row(c.ref); r.Title != strings.Repeat("é", titleLimit)+"…" {
		t.Fatalf("title %q", r.Title)
	}
}

// TestRecordingStatedByItsBaseState: a local recording whose server wrote
// base_state.json is stated, once every event is read, by that file's
// status ("finished (recorded, base_state)"), as a full fold of the
// recording and every other surface state it; before the end, and for a
// base state ohwatch derived from the events, the events decide.
func TestRecordingStatedByItsBaseState(t *testing.T) {
	f := New()
	for _, tc := range []struct {
		base, done bool
		want       string
	}{
		{base: true, done: true, want: "finished (recorded, base_state)"},
		{base: true, done: false, want: "finished? (provisional, per-field)"},
		{base: false, done: true, want: "finished (recorded, per-field)"},
	} {
		c := newConv("root", fmt.Sprint(tc.base, tc.done))
		c.ref.Kind = model.SourceLocal
		f.Apply([]model.FleetUpdate{c.meta(model.ConversationMeta{Status: "finished", BaseStatus: tc.base}),
			c.events(c.user("x"), c.status("running"), c.status("finished"))})
		if tc.done {
			f.Apply([]model.FleetUpdate{c.conn(model.PhaseDone)})
		}
		if r, _ := f.Row(c.ref); r.Verdict.String() != tc.want {
			t.Errorf("base %v, done %v: %q, want %q", tc.base, tc.done, r.Verdict.String(), tc.want)
		}
	}
}

// TestSourceColumnIsShort: the SOURCE column names an agent-server by its
// host:port (and path), a local root and Cloud by their labels; headings
// and lines keep the full label.
func TestSourceColumnIsShort(t *testing.T) {
	for _, tc := range []struct {
		ref  model.ConversationRef
		want string
	}{
		{model.ConversationRef{Source: "http://127.0.0.1:40491", Kind: model.SourceServer}, "127.0.0.1:40491"},
		{model.ConversationRef{Source: "https://agents.example.com/team-a/", Kind: model.SourceServer}, "agents.example.com/team-a"},
		{model.ConversationRef{Source: "http://[::1]:8000", Kind: model.SourceServer}, "[::1]:8000"},
		{model.ConversationRef{Source: "~/.openhands/conversations", Kind: model.SourceLocal}, "~/.openhands/conversations"},
		{model.ConversationRef{Source: "cloud", Kind: model.SourceCloud}, "cloud"},
		{model.ConversationRef{Kind: model.SourceCloud}, "cloud"},
	} {
		if got := ColSource.Text(Row{Ref: tc.ref}, t0); got != tc.want {
			t.Errorf("%q: SOURCE %q, want %q", tc.ref.Source, got, tc.want)
		}
	}
	if got := SourceLabel(model.ConversationRef{Source: "http://127.0.0.1:8000", Kind: model.SourceServer}); got != "http://127.0.0.1:8000" {
		t.Errorf("the full label is %q", got)
	}
}

// TestNestPlacesEveryItemOnce: random parent links, cycles and dangling
// parents included; every item is placed once, each after its parent and
// one level deeper, unless it is at the top level.
func TestNestPlacesEveryItemOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for range 200 {
		n := 1 + rng.IntN(30)
		parents := make([]int, n)
		for i := range parents {
			parents[i] = rng.IntN(n+5) - 5 // some -k: top level; some cycles
		}
		placed := Nest(n, func(i int) int { return parents[i] })
		if len(placed) != n {
			t.Fatalf("%d placed of %d (parents %v)", len(placed), n, parents)
		}
		pos := make(map[int]int, n)
		for k, p := range placed {
			if _, twice := pos[p.Index]; twice {
				t.Fatalf("%d placed twice (parents %v)", p.Index, parents)
			}
			pos[p.Index] = k
		}
		for k, p := range placed {
			if p.Depth == 0 {
				continue
			}
			par := parents[p.Index]
			if pos[par] >= k || placed[pos[par]].Depth != p.Depth-1 {
				t.Fatalf("%d at depth %d is not right under its parent %d (parents %v)", p.Index, p.Depth, par, parents)
			}
		}
	}
}

// TestListedCallsAreKnownOnlyFromPerCallLists: stats in the snapshot form
// (accumulated usage, no per-call lists, as a stats update or a local
// recording's tail gives them) cannot say how many calls were made; the
// row says unknown rather than counting the usages. Full stats count
// their calls.
func TestListedCallsAreKnownOnlyFromPerCallLists(t *testing.T) {
	f := New()
	snap := newConv("local", "snap")
	full := newConv("local", "full")
	usage := model.TokenUsage{Prompt: 1000, Completion: 200}
	f.Apply([]model.FleetUpdate{
		snap.meta(model.ConversationMeta{Status: "finished", UpdatedAt: t0, Stats: &model.Stats{UsageToMetrics: map[string]*model.Metrics{
			"agent":     {ModelName: "m", AccumulatedCost: 0.5, Accumulated: usage},
			"condenser": {ModelName: "m", AccumulatedCost: 0.1, Accumulated: usage}}}}),
		full.meta(model.ConversationMeta{Status: "finished", UpdatedAt: t0, Stats: &model.Stats{UsageToMetrics: map[string]*model.Metrics{
			"agent": {ModelName: "m", AccumulatedCost: 0.5, Accumulated: usage,
				TokenUsages: []model.TokenUsage{usage, usage, usage}, Costs: []model.Cost{{Cost: 0.2}, {Cost: 0.2}, {Cost: 0.1}}}}}}),
	})
	if r, _ := f.Row(snap.ref); r.LLMCallsKnown || ColCalls.Text(r, t0) != format.Unknown || ColCost.Text(r, t0) != "$0.60" {
		t.Fatalf("snapshot stats: calls %q (known %v), cost %q", ColCalls.Text(r, t0), r.LLMCallsKnown, ColCost.Text(r, t0))
	}
	if r, _ := f.Row(full.ref); !r.LLMCallsKnown || ColCalls.Text(r, t0) != "3" {
		t.Fatalf("full stats: calls %q (known %v)", ColCalls.Text(r, t0), r.LLMCallsKnown)
	}
}
