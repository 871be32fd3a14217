package headless

import (
	"slices"

	"ohwatch/internal/arena"
	"ohwatch/model"
	"ohwatch/reducer"
)

// loadLines is what the lines of a recording need of its events, taken as
// the events are read and appended: each event's summary and the little
// of its body a line shows (the log keeps the rest), and the State after
// each, as the log folded it (Log.AppendEach). A recording is printed
// once read, along HEAD's final path; when that path is every event in the order read (a recording whose
// HEAD never moved back), the lines are printed from these, and the log
// only lends each event's bytes for its JSON. Walking the log instead
// decodes and folds every event a second time: a third of a
// `replay --headless --json`.
//
// Its strings are kept in one buffer, so that the collector has a few
// objects to scan, not several per event.
type loadLines struct {
	off   bool              // an event was not appended as read: walk the log
	s     reducer.State     // the fold of events 0..folds-1, the log's
	folds int               // the States taken from the log (folded)
	facts [][]lineFact      // in chunks of factChunk, never moved once filled
	n     int               // the facts taken
	text  [][]byte          // the facts' summaries, in chunks of textChunk
	names []string          // risks and statuses, each once
	named map[string]uint16 // their positions in names
	marks []stateMark       // where what a line shows of the State changed
	// spill holds the full chunks of facts and text past the first
	// spillFrom of each (spill.go); factsAt and textAt say where, -1 for
	// a chunk in memory, textLen how long each text chunk is. cur* is the
	// chunk of each read back last.
	spill           spill
	spillFrom       int
	factsAt, textAt []int64
	textLen         []int
	curFactsC       int
	curFacts        []lineFact
	curTextC        int
	curText         []byte
	// printed says the lines came from here (printFromLoad).
	printed bool
}

// lineFact is what a line shows of an event's body; its id, kind,
// source and time are the log's (reducer.Log.Heads), which keeps them
// packed already: held here as well, with the id's text, they were a
// third of the facts and their text (60 MB at a million events).
type lineFact struct {
	summary      span
	risk, status uint16 // in names, for the bodies below
	body         uint8
	fullState    bool
}

// span is a string in loadLines.text: off counts from the first chunk's
// start, textChunk bytes a chunk.
type span struct{ off, n uint32 }

// The facts and their text grow in chunks, each copied only while it
// grows to its size, never once full: grown as one slice each, doubling,
// the facts and text of a million events (about 200 MB) were held twice
// over at each doubling, a tenth of the JSON at the peak of a `replay
// --headless`.
const (
	factChunk = 1 << 14
	textChunk = 1 << 20
)

// What of an event's body a line shows: an action's risk, a state
// update's execution status, whether it is an error.
const (
	bodyOther = iota
	bodyAction
	bodyStatus // a StateUpdate that sets execution_status
	bodyConversationError
	bodyAgentError
)

// stateMark is what a line shows of the State after event at, from there
// until the next mark.
type stateMark struct {
	at        int
	status    string
	confirmed bool
	source    reducer.StatusSource
	pending   []reducer.PendingAction // when waiting for confirmation
	question  *reducer.Question       // the open ask_user question then
}

// newLoadLines starts taking the events of a log whose first State is
// initial.
func newLoadLines(initial reducer.State) *loadLines {
	l := &loadLines{s: initial, named: map[string]uint16{}, spillFrom: spillFrom, curFactsC: -1, curTextC: -1}
	l.marks = append(l.marks, markOf(-1, &initial))
	return l
}

// folded is the log's AppendEach callback: s is the State after event j
// as the log folded it, the fold of every event so far while each event
// follows the one before it. One that does not (a branch) ends the
// taking: such a recording is walked.
func (l *loadLines) folded(j int, follows bool, s *reducer.State) {
	if l.off {
		return
	}
	if !follows || j != l.folds {
		l.off = true
		return
	}
	l.folds++
	l.s = *s
	if !l.marks[len(l.marks)-1].shows(&l.s) {
		l.marks = append(l.marks, markOf(j, &l.s))
	}
}

// take notes the events just appended to log (with AppendEach and
// folded), which held first events before them; a batch the log did not
// take whole and in order (a duplicate id) ends the taking.
func (l *loadLines) take(log *reducer.Log, first int, evs []model.Event) {
	if l.off {
		return
	}
	if first != l.n || log.Len()-first != len(evs) || l.folds != log.Len() {
		l.off = true
		return
	}
	for k := range evs {
		l.add(l.factOf(&evs[k]))
	}
}

// add appends a fact.
func (l *loadLines) add(f lineFact) {
	if l.n%factChunk == 0 {
		if c := len(l.facts) - 1; c >= l.spillFrom {
			if at, ok := l.spill.putFacts(l.facts[c]); ok {
				l.factsAt[c], l.facts[c] = at, nil
			}
		}
		l.facts = append(l.facts, make([]lineFact, 0, 64)) // grown within the chunk
		l.factsAt = append(l.factsAt, -1)
	}
	last := &l.facts[len(l.facts)-1]
	*last = append(*last, f)
	l.n++
}

// factOf notes ev's line.
func (l *loadLines) factOf(ev *model.Event) lineFact {
	f := lineFact{summary: l.keep(ev.Summary)}
	switch b := ev.Body.(type) {
	case *model.Action:
		f.body, f.risk = bodyAction, l.name(b.SecurityRisk)
	case *model.StateUpdate:
		if b.ExecutionStatus != "" {
			f.body, f.status, f.fullState = bodyStatus, l.name(b.ExecutionStatus), b.FullState
		}
	case *model.ConversationError:
		f.body = bodyConversationError
	case *model.AgentError:
		f.body = bodyAgentError
	}
	return f
}

// keep appends s to the text.
func (l *loadLines) keep(s string) span {
	if len(s) == 0 {
		return span{}
	}
	if len(l.text) == 0 || len(l.text[len(l.text)-1])+len(s) > textChunk {
		if len(s) > textChunk || len(l.text) == (1<<32)/textChunk {
			l.off = true // past what a span holds: walked
			return span{}
		}
		if c := len(l.text) - 1; c >= l.spillFrom {
			if at, ok := l.spill.put(l.text[c]); ok {
				l.textAt[c], l.textLen[c], l.text[c] = at, len(l.text[c]), nil
			}
		}
		l.text = append(l.text, make([]byte, 0, 4096)) // grown within the chunk
		l.textAt, l.textLen = append(l.textAt, -1), append(l.textLen, 0)
	}
	last := &l.text[len(l.text)-1]
	sp := span{off: uint32((len(l.text)-1)*textChunk + len(*last)), n: uint32(len(s))}
	*last = append(*last, s...)
	return sp
}

// name returns the position of a name, adding it when new.
func (l *loadLines) name(s string) uint16 {
	if k, ok := l.named[s]; ok {
		return k
	}
	if len(l.names) == 1<<16-1 {
		// A recording of that many kinds, sources, risks or statuses is
		// walked: a uint16 names no more.
		l.off = true
		return 0
	}
	k := uint16(len(l.names))
	s = string([]byte(s)) // its own copy: s may be in a reader's buffer
	l.names = append(l.names, s)
	l.named[s] = k
	return k
}

// usable reports whether events 0..n-1 were all taken, so that the
// lines can come from them.
func (l *loadLines) usable(n int) bool {
	return l != nil && !l.off && n > 0 && l.n == n
}

// event is event i as its lines need it, from its head h (its Raw
// h's). Its strings are views of the text, which no longer changes once
// the recording is read. ok is false when what was spilled of it cannot
// be read back.
func (l *loadLines) event(i int, h reducer.Head) (ev model.Event, ok bool) {
	f, ok := l.fact(i)
	if !ok {
		return ev, false
	}
	summary, ok := l.str(f.summary)
	if !ok {
		return ev, false
	}
	ev = model.Event{ID: h.ID, Kind: h.Kind, Source: h.Source, Summary: summary, Time: h.Time, Raw: h.Raw}
	switch f.body {
	case bodyAction:
		ev.Body = &model.Action{SecurityRisk: l.names[f.risk]}
	case bodyStatus:
		ev.Body = &model.StateUpdate{ExecutionStatus: l.names[f.status], FullState: f.fullState}
	case bodyConversationError:
		ev.Body = &model.ConversationError{}
	case bodyAgentError:
		ev.Body = &model.AgentError{}
	}
	return ev, true
}

// fact is event i's fact, read back when it was spilled.
func (l *loadLines) fact(i int) (*lineFact, bool) {
	c := i / factChunk
	if l.factsAt[c] < 0 {
		return &l.facts[c][i%factChunk], true
	}
	if l.curFactsC != c {
		fs, err := l.spill.getFacts(l.factsAt[c], factChunk)
		if err != nil {
			return nil, false
		}
		l.curFactsC, l.curFacts = c, fs
	}
	return &l.curFacts[i%factChunk], true
}

// str is the text of sp, read back when it was spilled.
func (l *loadLines) str(sp span) (string, bool) {
	if sp.n == 0 {
		return "", true
	}
	c, at := sp.off/textChunk, sp.off%textChunk
	b := l.text[c]
	if l.textAt[c] >= 0 {
		if l.curTextC != int(c) {
			t, err := l.spill.get(l.textAt[c], l.textLen[c])
			if err != nil {
				return "", false
			}
			l.curTextC, l.curText = int(c), t
		}
		b = l.curText
	}
	return arena.String(b[at : at+sp.n]), true
}

// close lets go of what was spilled.
func (l *loadLines) close() {
	if l != nil {
		l.spill.close()
	}
}

// markOf is what a line shows of s, the State after event at.
func markOf(at int, s *reducer.State) stateMark {
	m := stateMark{at: at, status: s.Status, confirmed: s.StatusConfirmed, source: s.StatusSource}
	if s.Status == model.StatusWaitingForConfirmation {
		m.pending = slices.Clone(s.Pending)
		m.question = s.Question
	}
	return m
}

// shows reports whether m shows what a line shows of s.
func (m *stateMark) shows(s *reducer.State) bool {
	if m.status != s.Status || m.confirmed != s.StatusConfirmed || m.source != s.StatusSource {
		return false
	}
	return s.Status != model.StatusWaitingForConfirmation || slices.Equal(m.pending, s.Pending) && m.question == s.Question
}

// state is a State holding what a line shows of m.
func (m *stateMark) state() reducer.State {
	return reducer.State{Status: m.status, StatusConfirmed: m.confirmed, StatusSource: m.source, Pending: m.pending, Question: m.question}
}

// printFromLoad prints the recording's lines from what was taken as it was
// read, when HEAD's path is every event in the order read, and returns
// the State at its end; ok is false, and nothing is printed, otherwise.
func (w *watcher) printFromLoad() (s reducer.State, ok bool) {
	l, n := w.lines, w.log.Len()
	if !l.usable(n) {
		return s, false
	}
	if p := w.recordingPath(); len(p) != 1 || p[0].From != 0 || p[0].To != n-1 {
		return s, false
	}
	path := reducer.Path{{From: 0, To: n - 1}}
	if w.opts.JSON {
		w.p.ahead = startJSONAhead(w.log, n)
		defer func() {
			w.p.ahead.stop()
			w.p.ahead = nil
		}()
	}
	next := 1 // the mark after the current one
	prev := l.marks[0].state()
	for i, h := range w.log.Heads(path) {
		for next < len(l.marks) && l.marks[next].at < i {
			next++
		}
		cur := prev
		if next < len(l.marks) && l.marks[next].at == i {
			cur = l.marks[next].state()
			next++
		}
		w.notesUpTo(i)
		ev, ok := l.event(i, h)
		if !ok {
			// The spill could not be read back: the event as the log
			// rebuilds it, which a walk would print.
			ev = w.log.Event(i)
		}
		w.printEvent(i, ev, prev, cur)
		prev = cur
	}
	w.notesUpTo(n)
	w.printed = n
	l.printed = true
	return l.s, true
}
