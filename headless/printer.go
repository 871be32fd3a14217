package headless

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
)

// printer writes the headless lines, as text or as JSONL. Every string that
// came from an event or a server is sanitised before it is written: a
// terminal, or a script's log, must never receive escape sequences from the
// conversation.
//
// Lines are buffered and written out by flush, which the watcher calls
// whenever it is about to wait for more input and before it returns: one
// write per batch instead of one per line (a 100k-event recording would
// otherwise spend its time in write system calls), and nothing printed is
// ever held back while the watch waits.
type printer struct {
	w    *bufio.Writer
	json bool
	err  error // the first write error; later writes are skipped
	// events builds the JSON lines of events, the bulk of a JSON run.
	events eventJSON
	// ahead, when set, has each event's part of its line made already.
	ahead *jsonAhead
}

// newPrinter returns a printer writing to out.
func newPrinter(out io.Writer, asJSON bool) *printer {
	return &printer{w: bufio.NewWriterSize(out, 64<<10), json: asJSON}
}

// flush writes out the buffered lines.
func (p *printer) flush() {
	if p.err != nil {
		return
	}
	p.err = p.w.Flush()
}

// eventMarks are what an event's line flags beside its summary.
type eventMarks struct {
	risk     string // the action's security risk; only HIGH is flagged in text
	awaiting bool   // the conversation waits for this action to be confirmed
}

// text is the marks as a text line shows them: "[HIGH risk, awaiting
// confirmation] ", or "" for none.
func (m eventMarks) text() string {
	var parts []string
	if m.risk == "HIGH" {
		parts = append(parts, "HIGH risk")
	}
	if m.awaiting {
		parts = append(parts, "awaiting confirmation")
	}
	if len(parts) == 0 {
		return ""
	}
	return "[" + strings.Join(parts, ", ") + "] "
}

func (p *printer) event(index int, ev model.Event, marks eventMarks, decoded bool) {
	if p.json {
		if p.err != nil {
			return
		}
		l := eventLine{
			Type:      "event",
			Index:     index,
			N:         format.EventN(index),
			ID:        sanitize.Line(ev.ID),
			Kind:      sanitize.Line(ev.Kind),
			Source:    ev.Source,
			Timestamp: formatTime(ev.Time),
			Summary:   ev.Summary,
			Risk:      sanitize.Line(marks.risk),
			Awaiting:  marks.awaiting,
		}
		var line []byte
		if made := p.ahead.event(index); made != nil {
			line = p.events.appendMade(l, made)
		} else {
			line = p.events.append(l, ev.Raw, decoded)
		}
		_, p.err = p.w.Write(line)
		return
	}
	kind := sanitize.Line(ev.Kind)
	if kind == "" {
		kind = "?"
	}
	if rest := marks.text() + ev.Summary; rest != "" {
		p.printf("  .. %s  %s\n", kind, rest)
		return
	}
	p.printf("  .. %s\n", kind)
}

// awaiting lists, under a status line that turned to
// waiting_for_confirmation, the actions the conversation waits on: in a
// live stream the status often arrives after the action's own line.
func (p *printer) awaiting(pending []reducer.PendingAction) {
	for _, a := range pending {
		if p.json {
			p.writeJSON(awaitLine{Type: "awaiting_confirmation", Index: a.Index, N: format.EventN(a.Index), ID: sanitize.Line(a.ID),
				Tool: sanitize.Line(a.ToolName), Risk: sanitize.Line(a.SecurityRisk), AnalyzerRisk: sanitize.Line(a.AnalyzerRisk),
				Summary: sanitize.Line(a.Summary)})
			continue
		}
		risk := sanitize.Line(orDash(a.SecurityRisk))
		if a.AnalyzerRisk != "" {
			// The analyzer's verdict is what the policy read.
			risk += ", analyzer " + sanitize.Line(a.AnalyzerRisk)
		}
		p.printf("     (awaiting confirmation: %s %s [%s] %s)\n", format.Event(a.Index), sanitize.Line(a.ToolName),
			risk, sanitize.Line(a.Summary))
	}
}

// status prints a status line; shape says where it came from ("full_state",
// "per-field", "inferred", "base_state", "rest").
func (p *printer) status(index int, from, to, shape string, confirmed bool) {
	if p.json {
		p.writeJSON(statusLine{Type: "status", Index: index, N: format.EventN(index), From: from, Status: to, Shape: shape, Confirmed: confirmed})
		return
	}
	p.printf("  >> execution_status=%s (%s)\n", sanitize.Line(to), shape)
}

func (p *printer) provisional(index int) {
	if p.json {
		p.writeJSON(noteLine{Type: "provisional", Index: index, Message: "finished is provisional: awaiting full_state confirmation"})
		return
	}
	p.printf("     (provisional — awaiting full_state confirmation)\n")
}

func (p *printer) note(kind, msg string) {
	msg = sanitize.Line(msg)
	if p.json {
		p.writeJSON(noteLine{Type: kind, Index: -1, Message: msg})
		return
	}
	switch kind {
	case "warning":
		p.printf("  !! warning: %s\n", msg)
	default:
		p.printf("  -- %s\n", msg)
	}
}

func (p *printer) connection(c model.ConnState) {
	reason := sanitize.Line(c.Reason)
	if p.json {
		p.writeJSON(connLine{Type: "connection", Phase: c.Phase.String(), Attempt: c.Attempt,
			RetryInMS: c.RetryIn.Milliseconds(), Reason: reason, Final: c.Final})
		return
	}
	switch c.Phase {
	case model.PhaseReconnecting:
		p.printf("  -- connection: reconnecting %d in %s", c.Attempt, format.Duration(c.RetryIn))
	default:
		p.printf("  -- connection: %s", c.Phase)
	}
	if reason != "" {
		p.printf(" (%s)", reason)
	}
	p.printf("\n")
}

func (p *printer) result(r Result) {
	if p.json {
		p.writeJSON(resultLine{Type: "result", Status: r.Status, Confirmed: r.Confirmed, Exit: r.Exit,
			Reason: sanitize.Line(r.Reason), Events: r.Events, Verdict: sanitize.Line(r.Verdict)})
		return
	}
	if _, terminal := exitForStatus(r.Status); terminal && (r.Exit == ExitFinished || r.Exit == ExitError || r.Exit == ExitStuck) {
		status := r.Status
		if r.Reason == "" && r.Verdict != "" {
			status = r.Verdict // a recording: the status and where it came from
		}
		p.printf("\nterminal state reached: %s\n", sanitize.Line(status))
		if r.Reason != "" {
			p.printf("(%s)\n", sanitize.Line(r.Reason))
		}
		return
	}
	if r.Exit == ExitGuard {
		p.printf("\nstopped by a guard: %s (last status: %s)\n", sanitize.Line(r.Reason), sanitize.Line(orDash(r.Status)))
		return
	}
	if r.Exit == ExitUnreachable {
		p.printf("\ncould not watch the conversation: %s\n", sanitize.Line(r.Reason))
		return
	}
	last := orDash(r.Status)
	if r.Verdict != "" && r.Status != "" {
		last = r.Verdict
	}
	p.printf("\nno terminal state reached: %s (last status: %s)\n", sanitize.Line(r.Reason), sanitize.Line(last))
}

func (p *printer) printf(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format, args...)
}

func (p *printer) writeJSON(v any) {
	if p.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		p.err = err
		return
	}
	b = append(b, '\n')
	_, p.err = p.w.Write(b)
}

// eventLine is an event's JSON line; index is its place counted from 0,
// n as a person counts it (from 1, as "#n" in the TUI and the text).
type eventLine struct {
	Type      string          `json:"type"`
	Index     int             `json:"index"`
	N         int             `json:"n"`
	ID        string          `json:"id"`
	Kind      string          `json:"kind"`
	Source    string          `json:"source,omitempty"`
	Timestamp string          `json:"timestamp,omitempty"`
	Summary   string          `json:"summary"`
	Risk      string          `json:"security_risk,omitempty"`
	Awaiting  bool            `json:"awaiting_confirmation,omitempty"`
	Event     json.RawMessage `json:"event"`
}

type awaitLine struct {
	Type  string `json:"type"`
	Index int    `json:"index"`
	N     int    `json:"n"`
	ID    string `json:"id"`
	Tool  string `json:"tool_name"`
	Risk  string `json:"security_risk"`
	// AnalyzerRisk is the security analyzer's verdict, when one was sent.
	AnalyzerRisk string `json:"analyzer_risk,omitempty"`
	Summary      string `json:"summary"`
}

type statusLine struct {
	Type      string `json:"type"`
	Index     int    `json:"index"`
	N         int    `json:"n"`
	From      string `json:"from"`
	Status    string `json:"status"`
	Shape     string `json:"shape"`
	Confirmed bool   `json:"confirmed"`
}

type noteLine struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message string `json:"message"`
}

type connLine struct {
	Type      string `json:"type"`
	Phase     string `json:"phase"`
	Attempt   int    `json:"attempt,omitempty"`
	RetryInMS int64  `json:"retry_in_ms,omitempty"`
	Reason    string `json:"reason,omitempty"`
	Final     bool   `json:"final,omitempty"`
}

type resultLine struct {
	Type      string `json:"type"`
	Status    string `json:"status"`
	Confirmed bool   `json:"confirmed"`
	Exit      int    `json:"exit"`
	Reason    string `json:"reason,omitempty"`
	Events    int    `json:"events"`
	Verdict   string `json:"verdict"`
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.UTC()
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		return t.Format(timeLayout)
	}
	// Written digit by digit: Format parses its layout for every event
	// line, a tenth of what a --json line costs beside its event.
	h, mi, sec := t.Clock()
	b := [len(timeLayout)]byte{4: '-', 7: '-', 10: 'T', 13: ':', 16: ':', 19: '.', 26: 'Z'}
	digits(b[0:4], y)
	digits(b[5:7], int(mo))
	digits(b[8:10], d)
	digits(b[11:13], h)
	digits(b[14:16], mi)
	digits(b[17:19], sec)
	digits(b[20:26], t.Nanosecond()/1000)
	return string(b[:])
}

// timeLayout is how a line gives an event's time: UTC, microseconds.
const timeLayout = "2006-01-02T15:04:05.000000Z"

// digits writes n into b in decimal, zero-padded to b's length.
func digits(b []byte, n int) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
