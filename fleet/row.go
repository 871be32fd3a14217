package fleet

import (
	"strconv"
	"time"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
)

// Attention is why a conversation needs a person, NoAttention when it does
// not. The values are in order of urgency: a confirmation blocks a run
// that is otherwise fine, an error or a stuck ended one, a finished only
// waits to be read.
type Attention int

// The reasons for attention.
const (
	NoAttention Attention = iota
	AttnConfirm
	// AttnQuestion: the agent asked the person (ask_user) and waits for
	// the answer, as urgent as a confirmation.
	AttnQuestion
	AttnError
	AttnStuck
	AttnFinished
)

// String is the reason in a word, for the attention column and the lines.
func (a Attention) String() string {
	switch a {
	case AttnConfirm:
		return "confirm"
	case AttnQuestion:
		return "question"
	case AttnError:
		return "error"
	case AttnStuck:
		return "stuck"
	case AttnFinished:
		return "finished"
	}
	return ""
}

// attention is why the entry needs a person now: it waits for a
// confirmation, ended in an error or stuck and was not yet seen so, or
// finished since the person last knew.
func (e *entry) attention() Attention {
	switch e.verdict.Status {
	case model.StatusWaitingForConfirmation:
		if e.st().Question != nil {
			return AttnQuestion
		}
		return AttnConfirm
	case model.StatusError:
		if !e.isNoted() {
			return AttnError
		}
	case model.StatusStuck:
		if !e.isNoted() {
			return AttnStuck
		}
	case model.StatusFinished:
		if !e.isNoted() {
			return AttnFinished
		}
	}
	return NoAttention
}

func (e *entry) isNoted() bool {
	return e.noted == e.verdict.Status && e.notedSince == e.statusSince
}

// Row is one conversation as a table line, a headless line or an `ls`
// entry shows it: plain values, worded by the Column methods through
// format.
type Row struct {
	Ref model.ConversationRef
	// ParentID is the conversation this one was forked from or delegated
	// by, in the same source ("" for none).
	ParentID string
	// ForkedFromEvent is the event of the parent it was forked at ("" for
	// a delegated conversation, or none).
	ForkedFromEvent string
	// Title is the listed title, else the first user message, else "".
	Title   string
	Verdict reducer.Verdict
	// Events is the number of distinct events folded; Duplicates those
	// dropped as already seen.
	Events, Duplicates int
	Iteration, Steps   int
	// MetricsReported is false when neither the events nor the listing
	// ever reported LLM usage: tokens, calls and cost are then unknown.
	MetricsReported bool
	Cost            float64
	CostKnown       bool
	Tokens          int64
	LLMCalls        int
	// LLMCallsKnown is false when the count would be a guess: metrics
	// from a listing whose stats carry no per-call lists.
	LLMCallsKnown bool
	// Pending is the number of actions waiting for the person's
	// confirmation (0 unless the status is waiting_for_confirmation).
	Pending int
	// Question is the open ask_user question's text ("" when none is
	// open while the status is waiting_for_confirmation), sanitised.
	Question string
	Errors   int
	// LastActivity is the latest of the latest event's time, the
	// listing's update time and when the latest live event arrived
	// (ApplyAt); zero when none is known.
	LastActivity time.Time
	Conn         model.ConnState
	ConnKnown    bool
	Paused       bool
	// Runtime is what the server says of the runtime and the archive;
	// zero where it says nothing.
	Runtime  model.Runtime
	Warnings int
	// Loading is set while the source reports more of the history to come.
	Loading  bool
	Progress model.Progress
	Attn     Attention
	// Started is when the run started: the listing's creation time, else
	// its earliest event's; zero when neither is known.
	Started time.Time
	// Depth is the row's depth under its parent in a listing (Rows sets
	// it: 0 at the top level).
	Depth int
	seq   int
}

// Idle is how long the conversation has been quiet at now; ok is false
// when its last activity is unknown.
func (r Row) Idle(now time.Time) (time.Duration, bool) {
	if r.LastActivity.IsZero() {
		return 0, false
	}
	return now.Sub(r.LastActivity), true
}

// Ended reports whether nothing more will come: a recording that ended.
// (A server's finished run may be resumed or sent a message.)
func (r Row) Ended() bool { return r.Verdict.Recorded }

// row builds the entry's row.
func (e *entry) row() Row {
	s := e.st()
	r := Row{
		Ref:             e.ref,
		ParentID:        sanitize.Line(e.meta.ParentID),
		ForkedFromEvent: sanitize.Line(e.meta.ForkedFromEvent),
		Title:           e.title(),
		Verdict:         e.verdict,
		Events:          s.Applied,
		Duplicates:      e.dups,
		Iteration:       s.Iteration,
		Steps:           s.Steps,
		Errors:          s.ErrorCount,
		LastActivity:    e.lastEvent,
		Conn:            e.conn,
		ConnKnown:       e.hasConn,
		Paused:          e.meta.Paused,
		Runtime:         e.runtime,
		Warnings:        e.warnings,
		Loading:         e.loading,
		Progress:        e.progress,
		Attn:            e.attention(),
		seq:             e.seq,
	}
	r.Started = e.meta.CreatedAt
	if r.Started.IsZero() {
		r.Started = e.firstEvent
	}
	for _, t := range []time.Time{e.meta.UpdatedAt, e.liveAt} {
		if t.After(r.LastActivity) {
			r.LastActivity = t
		}
	}
	if e.verdict.Status == model.StatusWaitingForConfirmation {
		r.Pending = len(s.Pending)
		r.Question = QuestionText(s.Question)
	}
	c, reported := s.Metrics.Combined, s.MetricsReported()
	r.MetricsReported, r.LLMCallsKnown = reported, reported
	r.Cost, r.CostKnown = c.CostUSD, reported && c.CostKnown
	r.Tokens, r.LLMCalls = c.Tokens(), c.LLMCalls
	if !reported && e.listedReported {
		l := e.listed
		r.MetricsReported, r.LLMCallsKnown = true, l.CallsKnown
		r.Cost, r.CostKnown = l.CostUSD, l.CostKnown
		r.Tokens, r.LLMCalls = l.Tokens, l.Calls
	}
	return r
}

// title is the listed title, else the first user message.
func (e *entry) title() string {
	if t := sanitize.Line(e.meta.Title); t != "" {
		return t
	}
	return e.firstUser
}

// QuestionText is an open question in one line: its first question, and
// how many more there are; "" for none.
func QuestionText(q *reducer.Question) string {
	if q == nil {
		return ""
	}
	qs := q.Request.Questions
	switch len(qs) {
	case 0:
		return "(a question without text)"
	case 1:
		return sanitize.Line(qs[0].Text)
	}
	return sanitize.Line(qs[0].Text) + " (+" + strconv.Itoa(len(qs)-1) + " more)"
}
