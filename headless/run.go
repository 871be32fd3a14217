package headless

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"time"

	"ohwatch/guard"
	"ohwatch/model"
	"ohwatch/reducer"
)

// DefaultConfirmGrace is how long a provisional finished waits for a
// full_state snapshot before REST is asked.
const DefaultConfirmGrace = 10 * time.Second

// DefaultErrorGrace is how long an error status waits for the error event
// that says why: the agent-server sends execution_status=error before its
// ConversationErrorEvent, which arrives within milliseconds.
const DefaultErrorGrace = 2 * time.Second

// Options configure a headless run.
type Options struct {
	Out  io.Writer
	JSON bool
	// Confirm asks the agent-server for the conversation's current status;
	// nil for recordings, which have no server to ask.
	Confirm func(ctx context.Context) (status string, err error)
	// ConfirmSource names what Confirm asks, for the status line ("rest"
	// when empty; "base_state.json" when following a directory).
	ConfirmSource string
	// ConfirmGrace is how long a provisional finished waits for a snapshot
	// before Confirm is called (0: DefaultConfirmGrace).
	ConfirmGrace time.Duration
	// ConfirmPoll, when set, asks Confirm as soon as a finished is
	// provisional and again every ConfirmPoll until it confirms or the
	// grace period ends: for a source as cheap to ask as a local
	// base_state.json, which may be rewritten just after the last event.
	ConfirmPoll time.Duration
	// ErrorGrace is how long an error status from the stream waits for its
	// error event before the watch ends without it (0: DefaultErrorGrace).
	ErrorGrace time.Duration
	// WatchTimeout ends the run with ExitNoTerminal when no terminal state
	// is reached in time (0: no limit).
	WatchTimeout time.Duration
	// Recording says the feed is a finished recording: when it ends, the
	// final derived state decides the exit code, since nothing can revert it.
	// Its lines are printed once it has been read, along HEAD's path (every
	// event of a linear recording).
	Recording bool
	// Branch, with Recording, is the id of an event whose branch the lines
	// follow instead (reducer.Log.Tip); the caller checks the log holds it.
	Branch string
	// Guards are evaluated after each event (nil: none). Act stops the
	// conversation for a pause or interrupt guard; without it (a
	// recording) every trip is a dry run.
	Guards *guard.Set
	Act    Act
}

// Result is how a headless run ended.
type Result struct {
	Exit      int
	Status    string
	Confirmed bool
	Reason    string
	Events    int
	// Verdict is the status with its provenance, as every surface words it
	// ("finished (recorded, inferred)"); it replaces Status in the text.
	Verdict string
}

// Run feeds every batch into log, prints the headless lines and returns
// when a terminal state is reached, the feed ends, the watch times out or ctx
// is cancelled (ExitInterrupted). log may already hold events (history
// loaded before the feed started); they are printed first.
func Run(ctx context.Context, log *reducer.Log, feed <-chan model.Batch, opts Options) Result {
	return newWatcher(ctx, log, opts).runAll(ctx, feed)
}

// newWatcher sets up a run of opts over log.
func newWatcher(ctx context.Context, log *reducer.Log, opts Options) *watcher {
	w := &watcher{log: log, opts: opts, p: newPrinter(opts.Out, opts.JSON), firstSnapshot: -1, errorEvent: -1, ctx: ctx}
	if opts.Recording && opts.Branch == "" && opts.Guards.Len() == 0 && log.Len() == 0 {
		// Guards judge whole States, and another branch is another
		// path: those recordings are walked (printRecording).
		w.lines = newLoadLines(log.Initial())
	}
	if w.opts.ConfirmGrace <= 0 {
		w.opts.ConfirmGrace = DefaultConfirmGrace
	}
	if w.opts.ErrorGrace <= 0 {
		w.opts.ErrorGrace = DefaultErrorGrace
	}
	return w
}

// runAll is Run's work once the watcher is set up.
func (w *watcher) runAll(ctx context.Context, feed <-chan model.Batch) Result {
	r := w.run(ctx, feed)
	w.lines.close()
	r.Events = conversationEvents(w.log)
	if r.Verdict == "" {
		r.Verdict = w.log.Latest().Verdict(false).String()
	}
	w.p.result(r)
	w.p.flush()
	return r
}

// watcher holds one run's progress. The decision rules live in decide.go.
type watcher struct {
	log  *reducer.Log
	opts Options
	p    *printer

	printed int // events of the log already printed
	// notes are the lines a recording's batches brought, printed with its
	// events, before the event at their index (printRecording).
	notes       []pendingNote
	live        bool // a full_state snapshot has been seen: events are live
	provisional bool // a per-field finished awaits confirmation
	confirmCh   chan confirmResult
	graceTimer  *time.Timer
	pollTimer   *time.Timer // the next early ask (ConfirmPoll)
	// firstSnapshot is the index of the first full_state snapshot (-1
	// before it): the status it states ends the history, it reverts
	// nothing.
	firstSnapshot int
	// errorEvent is the index of the newest error event printed (-1
	// for none); settling is the error result waiting for one, ended by
	// errorTimer.
	errorEvent int
	settling   *Result
	errorTimer *time.Timer
	// leaf is HEAD and newest the newest tree event, as of the last event
	// printed (followHead); offHead is set once a finished was not taken
	// for the end because HEAD had been moved off the run it ended.
	leaf, newest string
	offHead      bool
	ctx          context.Context
	guard        guardWatch
	// lines is what a recording's lines need, taken as it is read (nil
	// when they are to come from a walk of the log: loadlines.go).
	lines *loadLines
}

// pendingNote is a line to print before event at of a recording.
type pendingNote struct {
	at    int
	print func()
}

// later prints a batch's own lines now, or for a recording, which is
// printed once read, keeps them for their place among its events.
func (w *watcher) later(print func()) {
	if !w.opts.Recording {
		print()
		return
	}
	w.notes = append(w.notes, pendingNote{at: w.log.Len(), print: print})
}

// notesUpTo prints the kept lines that come before event i.
func (w *watcher) notesUpTo(i int) {
	k := 0
	for k < len(w.notes) && w.notes[k].at <= i {
		w.notes[k].print()
		k++
	}
	w.notes = w.notes[k:]
}

type confirmResult struct {
	status string
	err    error
}

func (w *watcher) run(ctx context.Context, feed <-chan model.Batch) Result {
	var timeout <-chan time.Time
	if w.opts.WatchTimeout > 0 {
		t := time.NewTimer(w.opts.WatchTimeout)
		defer t.Stop()
		timeout = t.C
	}
	defer w.stopGrace()
	defer w.stopErrorTimer()
	idle, stopIdle := w.idleTicker()
	defer stopIdle()
	if r, done := w.catchUp(ctx); done {
		return r
	}
	for {
		// Everything printed so far is written before waiting for more.
		w.p.flush()
		var grace, poll, errWait <-chan time.Time
		if w.graceTimer != nil {
			grace = w.graceTimer.C
		}
		if w.errorTimer != nil {
			errWait = w.errorTimer.C
		}
		if w.pollTimer != nil {
			poll = w.pollTimer.C
		}
		select {
		case <-ctx.Done():
			return w.interrupted(ctx)
		case <-timeout:
			return w.noTerminal(fmt.Sprintf("no terminal state within %s", w.opts.WatchTimeout))
		case <-idle:
			if r, done := w.guardIdle(); done {
				return r
			}
		case <-grace:
			w.graceTimer = nil
			w.askServer(ctx)
		case <-poll:
			w.pollTimer = nil
			w.askServer(ctx)
		case <-errWait:
			w.errorTimer = nil
			return *w.settling
		case res := <-w.confirmCh:
			w.confirmCh = nil
			if r, done := w.onConfirm(res); done {
				return r
			}
		case b, ok := <-feed:
			if !ok && ctx.Err() != nil {
				return w.interrupted(ctx) // the feed ended because ctx did
			}
			if !ok && w.settling != nil {
				return *w.settling
			}
			if !ok {
				return w.feedEnded()
			}
			if r, done := w.onBatch(ctx, b); done {
				return r
			}
		}
	}
}

// catchUp prints the events already in the log before the feed started.
func (w *watcher) catchUp(ctx context.Context) (Result, bool) {
	return w.printNew(ctx)
}

// onBatch takes one batch from the feed. A connection change took effect
// before the batch's events arrived (model.Batch), so it is printed first.
func (w *watcher) onBatch(ctx context.Context, b model.Batch) (Result, bool) {
	// The note keeps the connection change and the warnings, not the
	// batch: a recording's batches would otherwise stay alive, events and
	// all, until it has been read and printed.
	if conn, warnings, rt := b.Conn, b.Warnings, b.Runtime; conn != nil || len(warnings) > 0 || rt != nil {
		w.later(func() {
			if conn != nil {
				w.p.connection(*conn)
			}
			for _, msg := range warnings {
				w.p.note("warning", msg)
			}
			if rt != nil {
				// What the server says of the runtime (a Docker
				// runtime's status, an archive): apart from the status.
				w.p.note("runtime", cmp.Or(rt.Words(), "runtime: the server says nothing more"))
			}
		})
	}
	first := w.log.Len()
	if w.lines != nil {
		w.log.AppendEach(w.lines.folded, b.Events...)
		w.lines.take(w.log, first, b.Events)
	} else {
		w.log.Append(b.Events...)
	}
	if len(b.Events) > 0 {
		w.guard.lastArrival = time.Now()
	}
	if r, done := w.printNew(ctx); done {
		return r, true
	}
	if b.Conn != nil && b.Conn.Final {
		return w.unreachable(b.Conn.Reason), true
	}
	return Result{}, false
}

// interrupted ends a run whose context was cancelled. A cause with an
// ExitCode method (the signal that did it) gives the exit code, so the
// result line and the process agree: 143 for SIGTERM, 129 for SIGHUP.
func (w *watcher) interrupted(ctx context.Context) Result {
	s := w.log.Latest()
	if w.opts.Recording {
		// What was read is printed, along the path as far as it goes.
		s = w.printRecording()
	}
	code, reason := ExitInterrupted, "interrupted"
	if c, ok := context.Cause(ctx).(interface{ ExitCode() int }); ok {
		code, reason = c.ExitCode(), context.Cause(ctx).Error()
	}
	return Result{Exit: code, Status: s.Status, Confirmed: s.StatusConfirmed, Reason: reason}
}

// conversationEvents is the number of events of the conversation in log:
// every event but the full_state snapshots, which only a watch sees (the
// server's event count and `ls` do not hold them). Counted by the log as
// they came: decoding every event again to tell was a fifth of a
// headless replay.
func conversationEvents(log *reducer.Log) int {
	return log.Len() - log.Snapshots()
}

func (w *watcher) noTerminal(reason string) Result {
	s := w.log.Latest()
	return Result{Exit: ExitNoTerminal, Status: s.Status, Confirmed: s.StatusConfirmed, Reason: reason}
}

func (w *watcher) unreachable(reason string) Result {
	s := w.log.Latest()
	if reason == "" {
		reason = "connection lost"
	}
	return Result{Exit: ExitUnreachable, Status: s.Status, Reason: reason}
}
