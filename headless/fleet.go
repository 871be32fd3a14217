package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"ohwatch/fleet"
	"ohwatch/format"
	"ohwatch/guard"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// Until says when a headless fleet watch ends by itself.
type Until int

// The ends of a fleet watch.
const (
	// UntilNever watches until interrupted or the sources end.
	UntilNever Until = iota
	// UntilAll ends when every conversation known has ended: each is
	// finished, in an error, stuck, stopped by a guard or gone from its
	// source, or at rest (paused, or idle by the rule of fleetrest.go:
	// one idle that the watch has not seen run, just created or listed
	// before its first run, is waited for until it has been idle for
	// IdleGrace, 30 s).
	UntilAll
	// UntilAny ends when any conversation reaches a terminal state.
	UntilAny
)

// ParseUntil reads --until: "all" or "any" ("" is UntilNever).
func ParseUntil(s string) (Until, error) {
	switch s {
	case "":
		return UntilNever, nil
	case "all":
		return UntilAll, nil
	case "any":
		return UntilAny, nil
	}
	return UntilNever, fmt.Errorf("--until %q: want all or any", s)
}

// String is the flag's value.
func (u Until) String() string {
	switch u {
	case UntilAll:
		return "all"
	case UntilAny:
		return "any"
	}
	return ""
}

// FleetOptions configure a headless fleet watch.
type FleetOptions struct {
	JSON  bool
	Until Until
	// AwaitEvents makes --until wait, for each conversation, until its
	// events are in (its connection live, done or lost for good, and no
	// more of its history announced to come), not only
	// its listing: a listing can say finished before a conversation's
	// events were read, and a consumer of the events (traces) needs them.
	AwaitEvents bool
	// Sources is the number of sources the fleet watches (0: unknown).
	// With --until, the watch is not done before each has reported once
	// (its first listing is in, or it failed): a slower server's
	// conversations are part of "all".
	Sources int
	// SourcesReported says the caller reports the sources' own state
	// (their updates are folded, not printed).
	SourcesReported bool
	// Guards are evaluated on every conversation, each on its own, after
	// each of its events; Act stops a conversation a pause or interrupt
	// guard tripped on (nil: every trip is reported, nothing is sent).
	Guards []guard.Rule
	Act    FleetAct
	// Timeout bounds the watch (--watch-timeout; 0: none): when it passes
	// first, the watch ends as if its sources had, with exit 5 unless
	// every conversation had ended.
	Timeout time.Duration
	// IdleGrace is how long an idle conversation the watch has not seen
	// run is waited for (DefaultIdleGrace when 0; fleetrest.go).
	IdleGrace time.Duration
}

// FleetWatch prints one line per status change of any conversation of a
// fleet, and decides when a watch with --until is done and with which
// exit code: that of the worst outcome (error > stuck > none > finished),
// the codes a single conversation's watch exits with.
type FleetWatch struct {
	opts     FleetOptions
	f        *fleet.Fleet
	outcomes map[model.ConversationRef]fleet.Outcome
	// sourceConn is the last connection state printed for each source.
	sourceConn map[string]model.ConnState
	guards     fleetGuards
	ctx        context.Context // for Act; set by RunFleet
	// sourceWarned is the count of each source's warnings printed.
	sourceWarned map[string]int
	// rests times the conversations idle before a run (fleetrest.go);
	// now is the watch's clock (time.Now when nil).
	rests map[model.ConversationRef]*restClock
	now   func() time.Time
}

// NewFleetWatch returns a watch over an empty fleet.
func NewFleetWatch(opts FleetOptions) *FleetWatch {
	return &FleetWatch{opts: opts, f: fleet.New(), outcomes: map[model.ConversationRef]fleet.Outcome{},
		sourceConn: map[string]model.ConnState{}, sourceWarned: map[string]int{}, rests: map[model.ConversationRef]*restClock{}}
}

// Handle folds one slice of updates and returns its lines (each ending in
// a newline, sanitised), whether the watch is done by its --until and, when
// it is, the exit code. Once done, the result line is among the lines.
func (w *FleetWatch) Handle(ups []model.FleetUpdate) (lines []string, done bool, code int) {
	for _, c := range w.f.Apply(ups) {
		w.ranTo(c)
		r, _ := w.f.Row(c.Ref)
		if c.StatusChanged() && r.Verdict.Status != "" {
			lines = append(lines, w.statusLine(c, r))
		}
		o := r.Outcome()
		if prev := w.outcomes[c.Ref]; o != prev && o == fleet.OutcomeNone {
			lines = append(lines, w.endedLine(r))
		}
		w.outcomes[c.Ref] = o
	}
	// A connection change alone changes no status: follow the outcomes of
	// every conversation touched.
	for i := range ups {
		ref := ups[i].Ref
		if ref.ID == "" || ups[i].Batch.Conn == nil && ups[i].Meta == nil {
			continue
		}
		r, _ := w.f.Row(ref)
		if o := r.Outcome(); o != w.outcomes[ref] {
			if o == fleet.OutcomeNone {
				lines = append(lines, w.endedLine(r))
			}
			w.outcomes[ref] = o
		}
	}
	now := w.clockNow()
	for i := range ups {
		if ups[i].Ref.ID != "" {
			w.track(ups[i].Ref, now)
		}
	}
	if !w.opts.SourcesReported {
		lines = append(lines, w.sourceLines()...)
	}
	lines = append(lines, w.guardUpdates(ups)...)
	if code, done = w.decide(); done {
		lines = append(lines, w.resultLine(code, ""))
	}
	return lines, done, code
}

// End is the result when the watch stops before its --until is met (the
// sources ended, ctx was cancelled: reason says which): the line and the
// exit code. code is the worst outcome so far when every conversation has
// ended, else ExitNoTerminal; a caller with a code of its own (an
// interrupt's 130) uses that instead.
func (w *FleetWatch) End(reason string) (line string, code int) {
	code = ExitNoTerminal
	if c, ok := w.worst(func(o fleet.Outcome) bool { return o != fleet.OutcomeRunning }); ok && w.allEnded() {
		code = c
	}
	if w.unreachable() {
		code = ExitUnreachable
	}
	return w.resultLine(code, reason), code
}

// sourceLines are a line per change of a source's own connection state
// (its listing: a server that cannot be reached, a Cloud key rejected).
func (w *FleetWatch) sourceLines() []string {
	var lines []string
	for _, s := range w.f.Sources() {
		key := s.Kind.String() + " " + s.Source
		if s.Warnings > w.sourceWarned[key] {
			// A listing cut, items skipped: said once each.
			w.sourceWarned[key] = s.Warnings
			if w.opts.JSON {
				lines = append(lines, jsonLine(fleetLine{Type: "source", Source: s.Label(), SourceKind: s.Kind.String(), Warning: s.LastWarning}))
			} else {
				lines = append(lines, "  -- source "+s.Label()+": "+s.LastWarning+"\n")
			}
		}
		if !s.ConnKnown {
			continue
		}
		if prev, ok := w.sourceConn[key]; ok && prev == s.Conn {
			continue
		}
		w.sourceConn[key] = s.Conn
		if w.opts.JSON {
			lines = append(lines, jsonLine(fleetLine{Type: "source", Source: s.Label(), SourceKind: s.Kind.String(),
				Connection: s.Conn.Phase.String(), Reason: s.Conn.Reason, Final: s.Conn.Final}))
			continue
		}
		status := s.Status()
		line := "  -- source " + s.Label() + ": " + status
		if s.Conn.Reason != "" && s.Conn.Reason != status {
			line += " (" + s.Conn.Reason + ")"
		}
		lines = append(lines, line+"\n")
	}
	return lines
}

// unreachable reports whether nothing can come: no conversation is known
// and every source that reported gave up for good.
func (w *FleetWatch) unreachable() bool {
	ss := w.f.Sources()
	if w.f.Len() > 0 || len(ss) == 0 {
		return false
	}
	for _, s := range ss {
		if !s.ConnKnown || s.Conn.Phase != model.PhaseLost || !s.Conn.Final {
			return false
		}
	}
	return true
}

// sourcesListed reports whether every source that reported has listed
// (its listing live or done).
func (w *FleetWatch) sourcesListed() bool {
	for _, s := range w.f.Sources() {
		if !s.ConnKnown || s.Conn.Phase != model.PhaseLive && s.Conn.Phase != model.PhaseDone {
			return false
		}
	}
	return true
}

// sourcesHeard is the number of sources that reported their state.
func (w *FleetWatch) sourcesHeard() int {
	n := 0
	for _, s := range w.f.Sources() {
		if s.ConnKnown {
			n++
		}
	}
	return n
}

// decide applies --until to the outcomes.
func (w *FleetWatch) decide() (int, bool) {
	if w.unreachable() && w.opts.Until != UntilNever {
		return ExitUnreachable, true
	}
	if w.sourcesHeard() < w.opts.Sources {
		return 0, false
	}
	if w.f.Len() == 0 {
		// No conversation: once every source has listed (and none is
		// still retrying), there is nothing to wait for; --until ends
		// at once with the code of no terminal state. A source that
		// keeps failing may yet list some: --watch-timeout bounds that.
		if w.opts.Until != UntilNever && w.opts.Sources > 0 && w.sourcesListed() {
			return ExitNoTerminal, true
		}
		return 0, false
	}
	switch w.opts.Until {
	case UntilAll:
		if w.allEnded() {
			code, _ := w.worst(func(fleet.Outcome) bool { return true })
			return code, true
		}
	case UntilAny:
		if code, ok := w.worst(fleet.Outcome.Terminal); ok {
			return code, true
		}
		if w.allEnded() {
			// Nothing can reach a terminal state any more.
			code, _ := w.worst(func(fleet.Outcome) bool { return true })
			return code, true
		}
	}
	return 0, false
}

func (w *FleetWatch) allEnded() bool {
	for _, ref := range w.f.Refs() {
		if w.decisive(ref) == fleet.OutcomeRunning {
			return false
		}
	}
	return true
}

// decisive is the outcome --until counts for ref: its outcome, or running
// while AwaitEvents waits for its events or while it is idle and still
// expected to run (fleetrest.go).
func (w *FleetWatch) decisive(ref model.ConversationRef) fleet.Outcome {
	if w.opts.AwaitEvents {
		r, _ := w.f.Row(ref)
		if !r.ConnKnown || r.Loading {
			return fleet.OutcomeRunning
		}
		switch r.Conn.Phase {
		case model.PhaseLive, model.PhaseDone, model.PhaseListed:
		case model.PhaseLost:
			if !r.Conn.Final {
				return fleet.OutcomeRunning
			}
		default:
			return fleet.OutcomeRunning
		}
	}
	return w.restOutcome(ref, w.outcomes[ref])
}

// worst is the exit code of the worst outcome among those keep accepts;
// ok is false when there is none.
func (w *FleetWatch) worst(keep func(fleet.Outcome) bool) (code int, ok bool) {
	worst := fleet.OutcomeRunning
	for _, ref := range w.f.Refs() {
		if o := w.decisive(ref); keep(o) && o > worst {
			worst, ok = o, true
		}
	}
	return exitForOutcome(worst), ok
}

// exitForOutcome is the exit code a single conversation's watch gives the
// same end.
func exitForOutcome(o fleet.Outcome) int {
	switch o {
	case fleet.OutcomeFinished:
		return ExitFinished
	case fleet.OutcomeError:
		return ExitError
	case fleet.OutcomeStuck:
		return ExitStuck
	case fleet.OutcomeGuard:
		return ExitGuard
	}
	return ExitNoTerminal
}

// fleetLine is one JSONL object of a fleet watch.
type fleetLine struct {
	Type       string `json:"type"` // status | ended | source | result
	Source     string `json:"source,omitempty"`
	SourceKind string `json:"source_kind,omitempty"`
	ID         string `json:"id,omitempty"`
	Title      string `json:"title,omitempty"`
	From       string `json:"from,omitempty"`
	Status     string `json:"status,omitempty"`
	Confirmed  bool   `json:"confirmed,omitempty"`
	Final      bool   `json:"final,omitempty"`
	Verdict    string `json:"verdict,omitempty"`
	Attention  string `json:"attention,omitempty"`
	Question   string `json:"question,omitempty"`
	Connection string `json:"connection,omitempty"`
	Reason     string `json:"reason,omitempty"`
	Warning    string `json:"warning,omitempty"`
	// The result's fields.
	Until    string         `json:"until,omitempty"`
	Exit     *int           `json:"exit,omitempty"`
	Outcomes map[string]int `json:"outcomes,omitempty"`
}

func (w *FleetWatch) statusLine(c fleet.Change, r fleet.Row) string {
	id, title, source := sanitize.Line(r.Ref.ID), r.Title, fleet.SourceLabel(r.Ref)
	if w.opts.JSON {
		return jsonLine(fleetLine{Type: "status", Source: source, SourceKind: r.Ref.Kind.String(), ID: id, Title: title,
			From: sanitize.Line(c.From.Status), Status: sanitize.Line(r.Verdict.Status), Confirmed: r.Verdict.Confirmed,
			Final: r.Verdict.Final(), Verdict: sanitize.Line(r.Verdict.String()), Attention: r.Attn.String(), Question: r.Question})
	}
	from := format.Unknown
	if c.From.Status != "" {
		from = c.From.Short()
	}
	if r.Question != "" {
		return fmt.Sprintf("  >> %s  %s -> asks you: %s  %s  [%s]\n", id, sanitize.Line(from), r.Question,
			quoteTitle(title), source)
	}
	return fmt.Sprintf("  >> %s  %s -> %s  %s  [%s]\n", id, sanitize.Line(from), sanitize.Line(r.Verdict.String()),
		quoteTitle(title), source)
}

func (w *FleetWatch) endedLine(r fleet.Row) string {
	id, source := sanitize.Line(r.Ref.ID), fleet.SourceLabel(r.Ref)
	conn := fleet.ConnText(r)
	reason := sanitize.Line(r.Conn.Reason)
	if w.opts.JSON {
		return jsonLine(fleetLine{Type: "ended", Source: source, SourceKind: r.Ref.Kind.String(), ID: id, Title: r.Title,
			Status: sanitize.Line(r.Verdict.Status), Verdict: sanitize.Line(r.Verdict.String()), Connection: conn, Reason: reason})
	}
	why := conn
	if reason != "" {
		why += ": " + reason
	}
	return fmt.Sprintf("  -- %s  ended without a terminal state (%s; last status: %s)  %s  [%s]\n", id, why,
		sanitize.Line(r.Verdict.String()), quoteTitle(r.Title), source)
}

// resultLine sums up the fleet: how many conversations ended how, and the
// exit code.
func (w *FleetWatch) resultLine(code int, reason string) string {
	counts := map[string]int{}
	for _, ref := range w.f.Refs() {
		counts[w.outcomeName(ref)]++
	}
	reason = sanitize.Line(reason)
	if w.opts.JSON {
		return jsonLine(fleetLine{Type: "result", Until: w.opts.Until.String(), Exit: &code, Outcomes: counts, Reason: reason})
	}
	var parts []string
	for _, name := range countOrder(counts) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[name], name))
	}
	what := "no conversations"
	if len(parts) > 0 {
		what = fmt.Sprintf("%s: %s", format.Plural(w.f.Len(), "conversation"), strings.Join(parts, ", "))
	}
	head := "fleet"
	switch {
	case code == ExitUnreachable && reason == "":
		head = "no source could be reached"
	case reason != "":
		head = reason
	case w.f.Len() == 0 && w.opts.Until != UntilNever:
		head = "every source listed no conversation: nothing to wait for"
	case w.opts.Until == UntilAll:
		head = "every conversation ended"
	case w.opts.Until == UntilAny:
		head = "a conversation reached a terminal state"
	}
	return fmt.Sprintf("\n%s; %s (exit %d)\n", head, what, code)
}

// titleCells is the widest a title is printed in a line, in terminal
// cells: a line stays one line however long the listed title.
const titleCells = 60

func quoteTitle(t string) string {
	if t == "" {
		return `""`
	}
	return `"` + ansi.Truncate(t, titleCells, "…") + `"`
}

func jsonLine(v fleetLine) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b) + "\n"
}

// RunFleet prints the lines of every slice of updates to out until the
// watch is done by its --until (its exit code), feed closes (End's code)
// or ctx is cancelled (ExitInterrupted, or the exit code of ctx's cause
// when it has an ExitCode method, as Run does). Lines are written once per slice.
func RunFleet(ctx context.Context, feed <-chan []model.FleetUpdate, out io.Writer, opts FleetOptions) int {
	w := NewFleetWatch(opts)
	w.ctx = ctx
	write := func(lines []string) {
		if len(lines) > 0 {
			io.WriteString(out, strings.Join(lines, ""))
		}
	}
	interrupted := func() int {
		code, reason := ExitInterrupted, "interrupted"
		if c, ok := context.Cause(ctx).(interface{ ExitCode() int }); ok {
			code, reason = c.ExitCode(), context.Cause(ctx).Error()
		}
		write([]string{w.resultLine(code, reason)})
		return code
	}
	var timeout <-chan time.Time
	if opts.Timeout > 0 {
		t := time.NewTimer(opts.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	// graceEnds wakes the watch when an idle conversation's grace ends:
	// no update may come to decide again (its listing stays the same).
	graceEnds := time.NewTimer(time.Hour)
	graceEnds.Stop()
	defer graceEnds.Stop()
	rearm := func() {
		graceEnds.Stop()
		if at := w.wake(); !at.IsZero() {
			graceEnds.Reset(at.Sub(w.clockNow()))
		}
	}
	for {
		select {
		case <-graceEnds.C:
			lines, done, code := w.Handle(nil)
			write(lines)
			if done {
				return code
			}
			rearm()
		case <-timeout:
			line, code := w.End(fmt.Sprintf("no end within --watch-timeout %s", opts.Timeout))
			write([]string{line})
			return code
		case <-ctx.Done():
			return interrupted()
		case ups, ok := <-feed:
			if !ok && ctx.Err() != nil {
				// The sources end because ctx ended: the feed closes at
				// the same moment, and either may be seen first.
				return interrupted()
			}
			if !ok {
				line, code := w.End("the sources ended")
				write([]string{line})
				return code
			}
			lines, done, code := w.Handle(ups)
			write(lines)
			if done {
				return code
			}
			rearm()
		}
	}
}

// outcomeName is the name ref is counted under in the result: the outcome
// of an ended run, and for a conversation at rest or still going the
// status its line shows (idle, paused, running, waiting_for_confirmation).
func (w *FleetWatch) outcomeName(ref model.ConversationRef) string {
	o := w.outcomes[ref]
	if o != fleet.OutcomeRunning && o != fleet.OutcomeAtRest {
		return o.String()
	}
	r, _ := w.f.Row(ref)
	if st := sanitize.Line(r.Verdict.Status); st != "" {
		return st
	}
	return o.String()
}

// countOrder is the order of the result's counts in text: the worst
// outcomes first, then the statuses of the rest by name.
func countOrder(counts map[string]int) []string {
	fixed := []string{fleet.OutcomeError.String(), fleet.OutcomeStuck.String(), fleet.OutcomeGuard.String(), fleet.OutcomeNone.String(), fleet.OutcomeFinished.String()}
	var names []string
	for _, f := range fixed {
		if counts[f] > 0 {
			names = append(names, f)
		}
	}
	var rest []string
	for name := range counts {
		if !slices.Contains(fixed, name) {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	return append(names, rest...)
}
