package headless

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"ohwatch/model"
)

// printer writes the headless lines, as text or as JSONL. Every string that
// came from an event or a server is sanitised before it is written: a
// terminal, or a script's log, must never receive escape sequences from the
// conversation.
type printer struct {
	w    io.Writer
	json bool
	err  error // the first write error; later writes are skipped
}

func (p *printer) event(index int, ev model.Event) {
	if p.json {
		p.writeJSON(eventLine{
			Type:      "event",
			Index:     index,
			ID:        model.SanitizeLine(ev.ID),
			Kind:      model.SanitizeLine(ev.Kind),
			Source:    ev.Source,
			Timestamp: formatTime(ev.Time),
			Summary:   ev.Summary,
			Event:     json.RawMessage(safeJSON(ev.Raw)),
		})
		return
	}
	kind := model.SanitizeLine(ev.Kind)
	if kind == "" {
		kind = "?"
	}
	if ev.Summary != "" {
		p.printf("  .. %s  %s\n", kind, ev.Summary)
		return
	}
	p.printf("  .. %s\n", kind)
}

// status prints a status line; shape says where it came from ("full_state",
// "per-field", "inferred", "base_state", "rest").
func (p *printer) status(index int, from, to, shape string, confirmed bool) {
	if p.json {
		p.writeJSON(statusLine{Type: "status", Index: index, From: from, Status: to, Shape: shape, Confirmed: confirmed})
		return
	}
	p.printf("  >> execution_status=%s (%s)\n", model.SanitizeLine(to), shape)
}

func (p *printer) provisional(index int) {
	if p.json {
		p.writeJSON(noteLine{Type: "provisional", Index: index, Message: "finished is provisional: awaiting full_state confirmation"})
		return
	}
	p.printf("     (provisional — awaiting full_state confirmation)\n")
}

func (p *printer) note(kind, msg string) {
	msg = model.SanitizeLine(msg)
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
	reason := model.SanitizeLine(c.Reason)
	if p.json {
		p.writeJSON(connLine{Type: "connection", Phase: c.Phase.String(), Attempt: c.Attempt,
			RetryInMS: c.RetryIn.Milliseconds(), Reason: reason, Final: c.Final})
		return
	}
	switch c.Phase {
	case model.PhaseReconnecting:
		p.printf("  -- connection: reconnecting %d in %s", c.Attempt, c.RetryIn.Round(time.Millisecond))
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
			Reason: model.SanitizeLine(r.Reason), Events: r.Events})
		return
	}
	if _, terminal := exitForStatus(r.Status); terminal && (r.Exit == ExitFinished || r.Exit == ExitError || r.Exit == ExitStuck) {
		p.printf("\nterminal state reached: %s\n", r.Status)
		if r.Reason != "" {
			p.printf("(%s)\n", model.SanitizeLine(r.Reason))
		}
		return
	}
	if r.Exit == ExitUnreachable {
		p.printf("\ncould not watch the conversation: %s\n", model.SanitizeLine(r.Reason))
		return
	}
	p.printf("\nno terminal state reached: %s (last status: %s)\n", model.SanitizeLine(r.Reason), orDash(r.Status))
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

type eventLine struct {
	Type      string          `json:"type"`
	Index     int             `json:"index"`
	ID        string          `json:"id"`
	Kind      string          `json:"kind"`
	Source    string          `json:"source,omitempty"`
	Timestamp string          `json:"timestamp,omitempty"`
	Summary   string          `json:"summary"`
	Event     json.RawMessage `json:"event"`
}

type statusLine struct {
	Type      string `json:"type"`
	Index     int    `json:"index"`
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
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000000Z")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// safeJSON returns raw on one line with nothing a terminal could act on
// (model.TerminalSafeJSON, the rule every output of raw events follows).
// Invalid input becomes a JSON string holding a marker, so a JSONL line is
// always valid.
func safeJSON(raw []byte) []byte {
	if out, ok := model.TerminalSafeJSON(raw); ok {
		return out
	}
	return []byte(`"<invalid JSON>"`)
}
