package fleetview

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/internal/fixtures"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// fleetNow is the clock of the fleet table's tests: shortly after the
// generated conversations' last events.
var fleetNow = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

// fleetStart is when the fleet table of the tests started watching: the
// generated conversations' history is older, their live part newer.
var fleetStart = time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)

// newFleetScreen builds a fleet table of a given size, plain text, over a
// feed the test never writes to (updates are sent as messages).
func newFleetScreen(t testing.TB, w, h int, opts FleetOptions) *Fleet {
	t.Helper()
	opts.NoColor, opts.Profile = true, colorprofile.NoTTY
	if opts.Now == nil {
		// The table starts watching at fleetStart; every later frame
		// is at fleetNow.
		now := fleetStart
		opts.Now = func() time.Time {
			t := now
			now = fleetNow
			return t
		}
	}
	if opts.Where == "" {
		opts.Where = "~/.openhands/conversations, http://127.0.0.1:8000, cloud"
	}
	f := NewFleet(opts)
	f.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return f
}

// feedFleet sends slices of updates to the table as its feed would.
func feedFleet(f *Fleet, slices ...[]model.FleetUpdate) tea.Cmd {
	var cmd tea.Cmd
	for _, ups := range slices {
		cmd = f.Update(fleetUpdatesMsg{ups: ups})
	}
	return cmd
}

// pressFleet sends keys to the table one by one and returns the last
// command.
func pressFleet(f *Fleet, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		cmd = f.Update(tuitest.KeyMsg(k))
	}
	return cmd
}

const (
	fleetLocal  = "~/.openhands/conversations"
	fleetServer = "http://127.0.0.1:8000"
)

// fleetRef names a conversation of the fixture.
func fleetRef(source string, id string) model.ConversationRef {
	kind := model.SourceServer
	switch source {
	case fleetLocal:
		kind = model.SourceLocal
	case "cloud":
		kind = model.SourceCloud
	}
	return model.ConversationRef{Source: source, Kind: kind, ID: id}
}

func connUp(ref model.ConversationRef, p model.Phase) model.FleetUpdate {
	return model.FleetUpdate{Ref: ref, Batch: model.Batch{Conn: &model.ConnState{Phase: p}}}
}

func eventsUp(ref model.ConversationRef, evs ...model.Event) model.FleetUpdate {
	return model.FleetUpdate{Ref: ref, Batch: model.Batch{Events: evs}}
}

func metaUp(ref model.ConversationRef, m model.ConversationMeta) model.FleetUpdate {
	return model.FleetUpdate{Ref: ref, Meta: &m}
}

// statusEvent is a per-field execution_status update at a time.
func statusEvent(id, status string, at time.Time) model.Event {
	return model.Event{Kind: "ConversationStateUpdateEvent", ID: id, Time: at, Source: "environment",
		Summary: "execution_status=" + status, Body: &model.StateUpdate{Key: "execution_status", ExecutionStatus: status}}
}

// logEvents is every event of a log.
func logEvents(log *reducer.Log) []model.Event {
	evs := make([]model.Event, log.Len())
	for i := range evs {
		evs[i] = log.Event(i)
	}
	return evs
}

// fleetFixture is a fleet of every kind of row: real recordings and
// generated conversations, local, on a server and in the Cloud, live,
// ended, reconnecting and paused; one waits for confirmation, one errs,
// one is stuck, one is a fork of another, one has only just been listed.
// The first slice is the history; the second what happened since.
func fleetFixture(t testing.TB) (history, live []model.FleetUpdate) {
	t.Helper()
	return fleetFixtureOn(t, tuitest.Twin)
}

// fleetFixtureOn is fleetFixture with its local recordings read by load.
func fleetFixtureOn(t testing.TB, load tuitest.Loader) (history, live []model.FleetUpdate) {
	t.Helper()
	add := func(ups *[]model.FleetUpdate, u ...model.FleetUpdate) { *ups = append(*ups, u...) }

	// Local recordings, read to their end.
	for _, name := range []string{"simple_echo_hello_world", "creating_agent_plan"} {
		// As a local source reads one: live from the first chunk, with
		// the progress of the read.
		ref := fleetRef(fleetLocal, name)
		evs := logEvents(load(t, name))
		n := int64(len(evs))
		add(&history, model.FleetUpdate{Ref: ref, Batch: model.Batch{Events: evs, Conn: &model.ConnState{Phase: model.PhaseLive},
			Progress: &model.Progress{Done: n, Total: n, Loaded: int(n)}}}, connUp(ref, model.PhaseDone))
	}
	// A server conversation that comes to wait for a confirmation live.
	wait := fleetRef(fleetServer, "3c1d2e4f")
	confirm := logEvents(tuitest.Recorded(t, fixtures.Confirm))
	add(&history, metaUp(wait, model.ConversationMeta{Title: "Delete the build cache on the shared runner"}),
		connUp(wait, model.PhaseConnecting), eventsUp(wait, confirm[:5]...), connUp(wait, model.PhaseLive))
	add(&live, eventsUp(wait, confirm[5:7]...))
	// A generated run with metrics, live, and its fork, reconnecting.
	gen := fleetRef(fleetServer, "9a8b7c6d")
	evs := tuitest.GeneratedEvents(t, 2000, 3)
	add(&history, metaUp(gen, model.ConversationMeta{Title: "Fix the ttlcache eviction under load"}),
		connUp(gen, model.PhaseConnecting), eventsUp(gen, evs[:1500]...), connUp(gen, model.PhaseLive))
	add(&live, eventsUp(gen, evs[1500:]...))
	fork := fleetRef(fleetServer, "9a8b-fork")
	fevs := tuitest.GeneratedEvents(t, 300, 4)
	add(&history, metaUp(fork, model.ConversationMeta{Title: "Fix the ttlcache eviction: try a ring buffer", ParentID: "9a8b7c6d"}),
		connUp(fork, model.PhaseConnecting), eventsUp(fork, fevs...), connUp(fork, model.PhaseLive))
	add(&live, model.FleetUpdate{Ref: fork, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Attempt: 2, RetryIn: time.Second}}})
	// Two that go wrong live: an error and a stuck.
	for i, st := range []string{model.StatusError, model.StatusStuck} {
		ref := fleetRef(fleetServer, fmt.Sprintf("e%d", i))
		at := fleetNow.Add(-time.Duration(10*(i+1)) * time.Minute)
		add(&history, metaUp(ref, model.ConversationMeta{Title: []string{"Migrate the schema", "Bisect the flaky test"}[i]}),
			connUp(ref, model.PhaseConnecting),
			eventsUp(ref, model.Event{Kind: "MessageEvent", ID: ref.ID + "-u", Time: at, Source: "user", Summary: "go", Body: &model.Message{Role: "user"}},
				statusEvent(ref.ID+"-r", model.StatusRunning, at)),
			connUp(ref, model.PhaseLive))
		add(&live, eventsUp(ref, statusEvent(ref.ID+"-x", st, at.Add(time.Minute))))
	}
	// A Cloud conversation whose sandbox is paused: only its listing.
	cloud := fleetRef("cloud", "c10d")
	add(&history, metaUp(cloud, model.ConversationMeta{Title: "Write the release notes", Status: model.StatusFinished, Paused: true,
		UpdatedAt: fleetNow.Add(-26 * time.Hour), Stats: &model.Stats{UsageToMetrics: map[string]*model.Metrics{
			"agent": {ModelName: "claude", AccumulatedCost: 1.37, Accumulated: model.TokenUsage{Prompt: 812000, Completion: 20400}}}}}))
	// The Cloud's listing is being retried.
	add(&live, model.FleetUpdate{Ref: model.ConversationRef{Source: "cloud", Kind: model.SourceCloud},
		Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Attempt: 3, Reason: "503 Service Unavailable"}}})
	// One only just listed.
	fresh := fleetRef("cloud", "f4e5")
	add(&history, metaUp(fresh, model.ConversationMeta{Title: "Upgrade the Go toolchain"}), connUp(fresh, model.PhaseConnecting))
	return history, live
}

// fleetFixtureScreen is the fixture's table after both slices.
func fleetFixtureScreen(t testing.TB, w, h int, opts FleetOptions) *Fleet {
	t.Helper()
	return fleetFixtureScreenOn(t, tuitest.Twin, w, h, opts)
}

// fleetFixtureScreenOn is fleetFixtureScreen with the fixture's local
// recordings read by load.
func fleetFixtureScreenOn(t testing.TB, load tuitest.Loader, w, h int, opts FleetOptions) *Fleet {
	t.Helper()
	f := newFleetScreen(t, w, h, opts)
	history, live := fleetFixtureOn(t, load)
	feedFleet(f, history, live)
	return f
}

// drive drives f (newFleetScreen's or fleetFixtureScreen's) as its user
// does: keys in, the table's text out, at w×h. Ticks and the wait on the
// fleet's feed are kept, not run: the tests hand the feed's slices to
// feedFleet.
func drive(tb testing.TB, f *Fleet, w, h int) *tuitest.Driver {
	tb.Helper()
	d := tuitest.Drive(tb, f, w, h)
	d.Waits = func(cmd tea.Cmd) bool { return tuitest.IsTick(cmd) || tuitest.IsFleetFeedWait(cmd) }
	return d
}

// tableRows are the table's rows as the screen shows them, top to bottom:
// each row's title as drawn (cut with "…" when long), with "!" before
// those that need attention, and the index of the row marked ▶ (-1 when
// none is). Group headings are not rows.
func tableRows(d *tuitest.Driver) (rows []string, selected int) {
	selected = -1
	lines := strings.Split(d.Screen(), "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "   TITLE") })
	if start < 0 {
		return nil, -1
	}
	for _, l := range lines[start+1:] {
		if strings.HasPrefix(l, "─ ") {
			continue
		}
		r := []rune(l)
		if len(r) < 4 || strings.TrimSpace(l) == "" {
			break
		}
		if r[0] == '▶' {
			selected = len(rows)
		}
		title := rowTitle(string(r[3:]))
		if r[1] == '!' {
			title = "!" + title
		}
		rows = append(rows, title)
	}
	return rows, selected
}

// rowTitle is the title at the start of a row's text: up to the first
// two spaces, or to the "…" that cuts it.
func rowTitle(s string) string {
	if i := strings.Index(s, "…"); i >= 0 && (!strings.Contains(s, "  ") || i < strings.Index(s, "  ")) {
		return s[:i+len("…")]
	}
	if i := strings.Index(s, "  "); i >= 0 {
		return s[:i]
	}
	return strings.TrimSpace(s)
}

// selectedTitle is the title of the row marked ▶ ("" when none is).
func selectedTitle(d *tuitest.Driver) string {
	rows, sel := tableRows(d)
	if sel < 0 {
		return ""
	}
	return strings.TrimPrefix(rows[sel], "!")
}

// shownTitles are tableRows' rows joined by " | ", for messages.
func shownTitles(d *tuitest.Driver) string {
	rows, _ := tableRows(d)
	return strings.Join(rows, " | ")
}
