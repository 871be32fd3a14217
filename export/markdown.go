package export

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
)

// maxOutputLines caps a command output or a file in the transcript: a
// transcript is for reading and sharing, the raw events keep everything.
const maxOutputLines = 80

// Markdown writes a readable transcript: a summary table of the final
// state, then the conversation — messages, tool calls with their results,
// file edits as diffs, task lists as checklists, errors and status changes.
// Every text from an event is sanitised. recorded says log is a recording
// that has ended, whose last status is final (reducer.Verdict). It follows
// HEAD's path; MarkdownOn another path of a branched conversation.
func Markdown(w io.Writer, title string, log *reducer.Log, recorded bool) error {
	return MarkdownOn(w, title, log, log.HeadPath(), recorded)
}

// MarkdownOn is Markdown of the events of path p, a path of log's tree.
func MarkdownOn(w io.Writer, title string, log *reducer.Log, p reducer.Path, recorded bool) error {
	bw := bufio.NewWriter(w)
	m := &mdWriter{w: bw, log: log, last: -1}
	final := log.At(p.Tip())
	m.printf("# %s\n\n", oneLine(title))
	m.summary(final, final.Verdict(recorded), p.Len())
	m.printf("## Transcript\n\n")
	for st := range log.Walk(p) {
		prev, cur := st.Before, st.After
		m.event(st.Index, st.Event)
		if cur.Status != prev.Status {
			m.printf("_status: %s → %s (%s)_\n\n", orNone(prev.Status), cur.Status, format.Provenance(string(cur.StatusSource)))
		}
	}
	if m.err != nil {
		return m.err
	}
	return bw.Flush()
}

type mdWriter struct {
	w   *bufio.Writer
	err error
	// log answers which action a result is of (reducer.Log.ActionOf,
	// the rule every screen follows); last is the event written last.
	log  *reducer.Log
	last int
}

// of names the action result i answers, " of #N", when the transcript
// does not show it just before: the results of parallel calls follow all
// the calls, and would otherwise read as answers to the last one.
func (m *mdWriter) of(i int) string {
	if m.log == nil {
		return ""
	}
	if a, ok := m.log.ActionOf(i); ok && a != m.last {
		return " of " + format.Event(a)
	}
	return ""
}

func (m *mdWriter) printf(format string, args ...any) {
	if m.err == nil {
		_, m.err = fmt.Fprintf(m.w, format, args...)
	}
}

func (m *mdWriter) summary(s reducer.State, v reducer.Verdict, events int) {
	c := s.Metrics.Combined
	m.printf("| | |\n|---|---|\n")
	m.printf("| status | %s |\n", v)
	m.printf("| events | %d |\n", events)
	m.printf("| steps | %d |\n", s.Steps)
	rep := s.MetricsReported()
	m.printf("| cost | %s |\n", costText(usageDoc(c), rep))
	if rep {
		m.printf("| tokens | prompt %s · completion %s · cache read %s · reasoning %s |\n",
			format.Count(c.Prompt), format.Count(c.Completion), format.Count(c.CacheRead), format.Count(c.Reasoning))
	} else {
		m.printf("| tokens | %s |\n", format.Unknown)
	}
	m.printf("| LLM calls | %s |\n", format.Int(c.LLMCalls, rep))
	m.printf("| errors | %d |\n\n", s.ErrorCount)
	if len(s.Tasks.Items) > 0 {
		m.printf("**Tasks**\n\n")
		m.tasks(s.Tasks.Items)
	}
}

func (m *mdWriter) tasks(items []reducer.TaskItem) {
	for _, t := range items {
		m.printf("- %s %s", checkbox(t.Status), oneLine(t.Title))
		if t.Notes != "" {
			m.printf(" — %s", oneLine(t.Notes))
		}
		m.printf("\n")
	}
	m.printf("\n")
}

// event writes one event; structural noise (model.EventKind.Noise: state
// updates, deltas, token ids, LLM logs) is left to the status lines, and
// the system prompt, long and the same in every conversation, is left out.
func (m *mdWriter) event(i int, ev model.Event) {
	if k := model.KindOf(&ev); k != nil && (k.Noise || k.Name == model.KindSystemPrompt) {
		return
	}
	defer func() { m.last = i }()
	stamp := ""
	if !ev.Time.IsZero() {
		stamp = " · " + ev.Time.UTC().Format("15:04:05")
	}
	detail, err := ev.Detail()
	if err != nil {
		m.printf("**%s %s**%s — %s\n\n", format.Event(i), oneLine(ev.Kind), stamp, ev.Summary)
		return
	}
	switch d := detail.(type) {
	case *model.MessageEvent:
		who := map[string]string{"user": "User", "agent": "Agent", "environment": "Environment"}[ev.Source]
		if who == "" {
			who = oneLine(ev.Source)
		}
		m.printf("**%s**%s\n\n%s\n\n", who, stamp, quote(sanitize.Text(d.Text())))
	case *model.ActionEvent:
		m.action(i, ev, d, stamp)
	case *model.ObservationEvent:
		m.observation(d, m.of(i))
	default:
		if model.GroupOf(&ev) == model.GroupError {
			m.printf("**Error**%s%s: %s\n\n", m.of(i), stamp, ev.Summary)
			return
		}
		m.printf("**%s**%s%s — %s\n\n", oneLine(ev.Kind), m.of(i), stamp, ev.Summary)
	}
}

func (m *mdWriter) action(i int, ev model.Event, d *model.ActionEvent, stamp string) {
	risk := ""
	if d.SecurityRisk != "" && d.SecurityRisk != "UNKNOWN" {
		risk = " · risk " + oneLine(d.SecurityRisk)
	}
	m.printf("**Action** `%s`%s%s — %s\n\n", oneLine(d.ToolName), stamp, risk, ev.Summary)
	if t := strings.TrimSpace(sanitize.Text(d.ThoughtText())); t != "" {
		m.printf("%s\n\n", quote(t))
	}
	switch a := d.Action.(type) {
	case *model.TerminalAction:
		m.fence("sh", "$ "+sanitize.Text(a.Command))
	case *model.TaskTrackerAction:
		if a.Command == "plan" {
			items := make([]reducer.TaskItem, len(a.TaskList))
			for j, t := range a.TaskList {
				items[j] = reducer.TaskItem{Title: sanitize.Text(t.Title), Notes: sanitize.Text(t.Notes), Status: t.Status}
			}
			m.tasks(items)
		}
	case *model.FinishAction:
		m.printf("%s\n\n", quote(sanitize.Text(a.Message)))
	case *model.ThinkAction:
		m.printf("%s\n\n", quote(sanitize.Text(a.Thought)))
	default:
		if change, ok := model.FileEditOf(d); ok {
			m.diff(change)
		}
	}
}

func (m *mdWriter) observation(d *model.ObservationEvent, of string) {
	if t, ok := d.Observation.(*model.TerminalObservation); ok {
		label := "Output" + of
		if code := t.Code(); code != nil {
			label = fmt.Sprintf("Output%s (exit %d)", of, *code)
		}
		m.printf("%s:\n\n", label)
		m.fence("", sanitize.Text(t.Text()))
		return
	}
	if change, ok := model.FileEditOf(d); ok && !change.Created {
		return // the action already showed the edit
	}
	out := strings.TrimSpace(sanitize.Text(d.Output()))
	if out == "" {
		return
	}
	m.printf("Result%s (`%s`):\n\n", of, oneLine(d.ToolName))
	m.fence("", out)
}

// diff writes a file change as a unified-style diff of its lines.
func (m *mdWriter) diff(c model.FileChange) {
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s\n+++ %s\n", sanitize.Line(c.Path), sanitize.Line(c.Path))
	for _, l := range splitLines(sanitize.Text(c.Old)) {
		b.WriteString("-" + l + "\n")
	}
	for _, l := range splitLines(sanitize.Text(c.New)) {
		b.WriteString("+" + l + "\n")
	}
	m.fence("diff", strings.TrimRight(b.String(), "\n"))
}

// fence writes text in a code block whose fence is longer than any run of
// backticks inside it, cut to maxOutputLines.
func (m *mdWriter) fence(lang, text string) {
	lines := splitLines(text)
	if len(lines) > maxOutputLines {
		more := len(lines) - maxOutputLines
		lines = append(lines[:maxOutputLines], fmt.Sprintf("… %d more lines", more))
	}
	body := strings.Join(lines, "\n")
	fence := "```"
	for strings.Contains(body, fence) {
		fence += "`"
	}
	m.printf("%s%s\n%s\n%s\n\n", fence, lang, body, fence)
}

func splitLines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// quote renders text as a markdown block quote.
func quote(s string) string {
	lines := splitLines(s)
	if len(lines) == 0 {
		return "> (empty)"
	}
	return "> " + strings.Join(lines, "\n> ")
}

func oneLine(s string) string { return sanitize.Line(s) }
