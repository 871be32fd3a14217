package headless

import (
	"context"
	"fmt"
	"time"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
)

// printNew prints the events appended since the last call, with a status
// line wherever the derived status changed, and applies the terminal-state
// rules. History (everything before the server's first full_state
// snapshot) is judged only by the state it ends in, so a past error that
// was recovered from does not end a live watch; from the first snapshot on,
// every event is live and judged as it comes, so a confirmed finished is
// not missed when the next run's events arrive in the same batch.
//
// Each event is folded onto the State of its parent in the conversation
// tree: a live conversation whose HEAD was moved back (navigate) goes on
// from there, and a line says so. A recording is printed once it has been
// read, along one path (printRecording).
func (w *watcher) printNew(ctx context.Context) (Result, bool) {
	n := w.log.Len()
	if w.printed >= n || w.opts.Recording {
		return Result{}, false
	}
	// One Apply per event, from the state before the first new one: the
	// same result as log.At(i) for each i (Apply is pure), at a fraction of
	// the cost of a checkpointed seek per event.
	//
	// A run that ends mid-batch still prints the rest of the batch: every
	// event that arrived before the watch ended is printed.
	prev := w.log.At(w.log.Parent(w.printed))
	var end *Result
	for i := w.printed; i < n; i++ {
		ev := w.log.Event(i)
		if p := w.log.Parent(i); p != i-1 {
			prev = w.log.At(p)
			w.branched(i, p)
		}
		cur := reducer.ApplyAt(prev, i, ev)
		w.followHead(ev)
		w.printEvent(i, ev, prev, cur)
		prev = cur
		if su, ok := ev.Body.(*model.StateUpdate); ok && su.FullState {
			w.live = true
			if w.firstSnapshot < 0 {
				w.firstSnapshot = i
			}
		}
		if w.live && i < n-1 && end == nil {
			w.printed = i + 1
			if r, done := w.decide(ctx, cur); done {
				end = &r
			}
		}
	}
	w.printed = n
	if end != nil {
		return *end, true
	}
	w.guardHeld(prev)
	return w.decide(ctx, prev)
}

// branched says that event i does not follow the one before it: HEAD was
// moved back to event p (a new root when p is -1).
func (w *watcher) branched(i, p int) {
	if p < 0 {
		w.p.note("branch", fmt.Sprintf("event %s starts a new root: HEAD was moved to nothing", format.Event(i)))
		return
	}
	w.p.note("branch", fmt.Sprintf("HEAD was moved back to event %s (%s): the conversation goes on from there", format.Event(p), w.log.Event(p).ID))
}

// recordingPath is the path of a recording the lines follow: HEAD's, or
// the branch through Options.Branch.
func (w *watcher) recordingPath() reducer.Path {
	if w.opts.Branch != "" {
		if i, ok := w.log.IndexOf(w.opts.Branch); ok {
			return w.log.Path(w.log.Tip(i))
		}
	}
	return w.log.HeadPath()
}

// printRecording prints the events of a recording that has been read,
// along the path the lines follow, and returns the State at its end.
func (w *watcher) printRecording() reducer.State {
	if s, ok := w.printFromLoad(); ok {
		return s
	}
	s := w.log.Initial()
	for st := range w.log.Walk(w.recordingPath()) {
		w.notesUpTo(st.Index)
		w.printEvent(st.Index, st.Event, st.Before, st.After)
		s = st.After
	}
	w.notesUpTo(w.log.Len())
	w.printed = w.log.Len()
	return s
}

// printEvent prints the event's line and then, when the event changed the
// derived status (or is a full_state snapshot), a status line after it:
// every event is printed exactly once, whatever it did to the status.
func (w *watcher) printEvent(i int, ev model.Event, prev, cur reducer.State) {
	marks := marksOf(i, ev, cur)
	w.p.event(i, ev, marks, w.log.Decoded(i))
	defer w.guardEvent(i, ev, cur)
	if isErrorEvent(ev) {
		w.errorEvent = i
	}
	su, isState := ev.Body.(*model.StateUpdate)
	changed := cur.Status != prev.Status || cur.StatusConfirmed != prev.StatusConfirmed
	snapshot := isState && su.FullState && su.ExecutionStatus != ""
	if !changed && !snapshot {
		return
	}
	w.p.status(i, prev.Status, cur.Status, shapeOf(ev, cur), cur.StatusConfirmed)
	if cur.Status == model.StatusWaitingForConfirmation && cur.Status != prev.Status && !marks.awaiting {
		// The status came after the actions' own lines (the agent-server
		// sends it after the ActionEvent): say which wait, once — a
		// snapshot confirming the same wait names it no more.
		if cur.Question != nil {
			w.p.asking(cur.Question)
		} else {
			w.p.awaiting(cur.Pending)
		}
	}
}

// isErrorEvent reports whether ev says why a conversation failed.
func isErrorEvent(ev model.Event) bool {
	switch ev.Body.(type) {
	case *model.ConversationError, *model.AgentError:
		return true
	}
	return false
}

// marksOf says what a reader of the lines must not miss about an event: a
// HIGH-risk action, and an action the conversation now waits to have
// confirmed.
func marksOf(i int, ev model.Event, s reducer.State) eventMarks {
	a, ok := ev.Body.(*model.Action)
	if !ok {
		return eventMarks{}
	}
	m := eventMarks{risk: a.SecurityRisk}
	if s.Status == model.StatusWaitingForConfirmation {
		for _, p := range s.Pending {
			if p.Index == i {
				m.awaiting = true
			}
		}
	}
	return m
}

// shapeOf names where a status line's value came from, in the words of the
// upstream watch_terminal_state example where it has them.
func shapeOf(ev model.Event, s reducer.State) string {
	if su, ok := ev.Body.(*model.StateUpdate); ok && su.ExecutionStatus != "" {
		if su.FullState {
			return "full_state"
		}
		return "per-field"
	}
	switch s.StatusSource {
	case reducer.SourceBaseState:
		return "base_state"
	case reducer.SourceFullState:
		return "full_state"
	case reducer.SourceStateUpdate:
		return "per-field"
	}
	return "inferred"
}

// decide applies the terminal-state rules to the latest state.
func (w *watcher) decide(ctx context.Context, s reducer.State) (Result, bool) {
	if s.Status != model.StatusError && w.settling != nil {
		// The run went on from the error it was waiting to explain.
		w.settling = nil
		w.stopErrorTimer()
	}
	if r, done := w.guardDecide(s); done {
		return r, true
	}
	switch s.Status {
	case model.StatusError:
		return w.onError(s)
	case model.StatusStuck:
		return Result{Exit: ExitStuck, Status: s.Status, Confirmed: true}, true
	case model.StatusFinished:
		if w.headMovedOff() {
			return Result{}, false
		}
		if s.StatusConfirmed {
			return Result{Exit: ExitFinished, Status: s.Status, Confirmed: true, Reason: confirmedBy(s)}, true
		}
		if !w.provisional {
			w.provisional = true
			w.p.provisional(w.printed - 1)
			w.armGrace()
			if w.opts.ConfirmPoll > 0 {
				w.askServer(ctx) // a local file answers at once
			}
		}
		return Result{}, false
	}
	if w.provisional {
		w.provisional = false
		w.stopGrace()
		if s.StatusAt == w.firstSnapshot {
			// The first snapshot states where the conversation is: the
			// finished before it was history (a fork carries its
			// source's status events), not a run that went on.
			w.p.note("note", "the conversation is "+s.Status+" (the finished before the server's first snapshot is history); still watching")
			return Result{}, false
		}
		// A Stop hook (or anything else) moved the run on from a
		// provisional finished: it was not the end.
		w.p.note("note", "finished was reverted to "+s.Status+"; still watching")
	}
	return Result{}, false
}

// onError ends the watch on an error status once its error event has been
// printed, or a snapshot confirms it; otherwise it waits up to ErrorGrace
// for the event (the agent-server sends the status first), printing all
// that arrives meanwhile. The result is confirmed only when a snapshot
// or base_state.json said error.
func (w *watcher) onError(s reducer.State) (Result, bool) {
	r := Result{Exit: ExitError, Status: s.Status, Confirmed: s.StatusConfirmed}
	if s.StatusConfirmed || w.errorEvent >= 0 && w.errorEvent >= s.StatusAt || w.opts.Recording {
		w.stopErrorTimer()
		return r, true
	}
	w.settling = &r
	if w.errorTimer == nil {
		w.errorTimer = time.NewTimer(w.opts.ErrorGrace)
	}
	return Result{}, false
}

func (w *watcher) stopErrorTimer() {
	if w.errorTimer != nil {
		w.errorTimer.Stop()
		w.errorTimer = nil
	}
}

// followHead tracks HEAD (the server's leaf_event_id) and the newest tree
// event as of ev, event by event, so that a decision made in the middle of
// a batch sees HEAD where it was then.
func (w *watcher) followHead(ev model.Event) {
	w.leaf = reducer.NextLeaf(w.leaf, ev)
	if su, ok := ev.Body.(*model.StateUpdate); (!ok || su.LeafEventID == "") && reducer.NextLeaf("", ev) == ev.ID {
		w.newest = ev.ID
	}
}

// headMovedOff reports whether HEAD was moved back off the newest tree
// event (a navigate with no run since): a finished then belongs to a run
// that is no longer on HEAD's path, and the conversation waits for its
// next message, so the watch goes on. It says so once.
func (w *watcher) headMovedOff() bool {
	if w.leaf == "" || w.leaf == w.newest {
		return false
	}
	if !w.offHead {
		w.offHead = true
		at, _ := w.log.IndexOf(w.leaf)
		w.p.note("note", fmt.Sprintf("HEAD was moved back to event %s: the finished run is off its path; waiting for the next run", format.Event(at)))
	}
	return true
}

func confirmedBy(s reducer.State) string {
	switch s.StatusSource {
	case reducer.SourceBaseState:
		return "confirmed by base_state.json"
	case reducer.SourceFullState:
		return "confirmed by a full_state snapshot"
	}
	return "confirmed"
}

func (w *watcher) armGrace() {
	if w.opts.Confirm == nil {
		return
	}
	w.stopGrace()
	w.graceTimer = time.NewTimer(w.opts.ConfirmGrace)
}

func (w *watcher) stopGrace() {
	if w.graceTimer != nil {
		w.graceTimer.Stop()
		w.graceTimer = nil
	}
	if w.pollTimer != nil {
		w.pollTimer.Stop()
		w.pollTimer = nil
	}
}

// pollAgain schedules the next early ask when the source is polled
// (ConfirmPoll) and the grace period is still running; it reports whether
// it did. An early answer other than finished is not a denial: the source
// may not have caught up yet, and the ask at the end of the grace period
// decides.
func (w *watcher) pollAgain() bool {
	if w.opts.ConfirmPoll <= 0 || w.graceTimer == nil {
		return false
	}
	w.pollTimer = time.NewTimer(w.opts.ConfirmPoll)
	return true
}

// askServer asks REST for the status in the background, so the feed keeps
// flowing (a snapshot may still arrive first).
func (w *watcher) askServer(ctx context.Context) {
	if w.opts.Confirm == nil || w.confirmCh != nil {
		return
	}
	ch := make(chan confirmResult, 1)
	w.confirmCh = ch
	confirm := w.opts.Confirm
	go func() {
		cctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		status, err := confirm(cctx)
		ch <- confirmResult{status: status, err: err}
	}()
}

func (w *watcher) onConfirm(res confirmResult) (Result, bool) {
	if !w.provisional {
		return Result{}, false // the feed already settled it
	}
	status := sanitize.Line(res.status)
	if _, terminal := exitForStatus(status); (res.err != nil || !terminal) && w.pollAgain() {
		return Result{}, false
	}
	if res.err != nil {
		w.p.note("warning", "confirmation failed: "+res.err.Error()+"; still waiting for a snapshot")
		w.armGrace()
		return Result{}, false
	}
	source := w.opts.ConfirmSource
	if source == "" {
		source = "rest"
	}
	w.p.status(w.log.Len()-1, model.StatusFinished, status, source, status == model.StatusFinished)
	switch status {
	case model.StatusFinished:
		return Result{Exit: ExitFinished, Status: status, Confirmed: true, Reason: "confirmed by " + source + " after the grace period"}, true
	case model.StatusError:
		return Result{Exit: ExitError, Status: status, Confirmed: true, Reason: "reported by " + source}, true
	case model.StatusStuck:
		return Result{Exit: ExitStuck, Status: status, Confirmed: true, Reason: "reported by " + source}, true
	}
	w.provisional = false
	w.p.note("note", source+" reports "+status+": finished not confirmed; still watching")
	return Result{}, false
}

// feedEnded decides when the source has nothing more to give. A recording
// exits by its verdict (reducer.Verdict): its last status is final, since
// nothing can revert it, and the result says where it came from.
func (w *watcher) feedEnded() Result {
	if !w.opts.Recording {
		return w.noTerminal("the stream ended")
	}
	s := w.printRecording()
	if r, stopped := w.guardDryRun(s); stopped {
		return r
	}
	v := s.Verdict(true)
	code, terminal := exitForStatus(s.Status)
	if !terminal {
		r := w.noTerminal("the recording ends before a terminal state")
		r.Verdict = v.String()
		return r
	}
	return Result{Exit: code, Status: s.Status, Confirmed: v.Final(), Verdict: v.String()}
}
