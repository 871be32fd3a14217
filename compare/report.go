package compare

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
)

// Report is what `ohwatch compare` prints: each side's figures, where the
// runs part, how the steps line up, and the differences in words.
type Report struct {
	A SideReport `json:"a"`
	B SideReport `json:"b"`
	// SharedUntilEventID is the last event both runs hold by identity;
	// null when they share none.
	SharedUntilEventID *string `json:"shared_until_event_id"`
	// FirstDivergence is each side's first step that differs; null when
	// the runs do not differ.
	FirstDivergence *Divergence `json:"first_divergence"`
	Counts          Counts      `json:"counts"`
	// Deltas say in words how B compares with A: "B is 26% cheaper".
	Deltas []string `json:"deltas"`
}

// SideReport is one side's figures, as of the end of its compared path.
type SideReport struct {
	Name           string `json:"name"`
	Title          string `json:"title"`
	Source         string `json:"source"`
	ConversationID string `json:"conversation_id,omitempty"`
	Events         int    `json:"events"`
	Status         string `json:"status"`
	Verdict        string `json:"verdict"`
	// DurationSeconds is from the first to the last event's time; null
	// when the events carry no times.
	DurationSeconds *float64 `json:"duration_seconds"`
	Duration        string   `json:"duration"`
	// CostUSD is null when no price is known.
	CostUSD  *float64 `json:"cost_usd"`
	Cost     string   `json:"cost"`
	Tokens   Tokens   `json:"tokens"`
	LLMCalls int      `json:"llm_calls"`
	// MetricsReported is false when the run reported no metrics at all:
	// its zeros are unknown, not nothing.
	MetricsReported bool           `json:"metrics_reported"`
	Steps           int            `json:"steps"`
	Errors          int            `json:"errors"`
	ToolCalls       map[string]int `json:"tool_calls"`
	FilesEdited     []string       `json:"files_edited"`
	FinalMessage    string         `json:"final_message"`

	cost     float64
	costOK   bool
	duration time.Duration
	timed    bool
}

// Tokens are the four kinds of token a run spends.
type Tokens struct {
	Prompt     int64 `json:"prompt"`
	Completion int64 `json:"completion"`
	CacheRead  int64 `json:"cache_read"`
	CacheWrite int64 `json:"cache_write"`
}

// Divergence is where the runs part: the first row that is not the same,
// and each side's first differing step from there (null for a side with
// none).
type Divergence struct {
	Row int         `json:"row"`
	A   *StepReport `json:"a"`
	B   *StepReport `json:"b"`
}

// StepReport names one step.
type StepReport struct {
	// Step is the step's index among its side's steps, Event its index in
	// the side's log.
	Step    int    `json:"step"`
	Event   int    `json:"event"`
	EventID string `json:"event_id"`
	Kind    string `json:"kind"`
	Tool    string `json:"tool,omitempty"`
	Outcome string `json:"outcome,omitempty"`
	Summary string `json:"summary"`
}

// NewReport builds the report of c.
func NewReport(c *Comparison) Report {
	r := Report{
		A:      sideReport(c.A, c.PathA, c.StepsA),
		B:      sideReport(c.B, c.PathB, c.StepsB),
		Counts: c.Counts,
	}
	if c.SharedUntilID != "" {
		id := c.SharedUntilID
		r.SharedUntilEventID = &id
	}
	if c.FirstDiff >= 0 {
		d := &Divergence{Row: c.FirstDiff}
		for _, row := range c.Rows[c.FirstDiff:] {
			if row.Op == Same {
				continue
			}
			if d.A == nil && row.A >= 0 {
				d.A = StepOf(c.A, c.StepsA, row.A)
			}
			if d.B == nil && row.B >= 0 {
				d.B = StepOf(c.B, c.StepsB, row.B)
			}
			if d.A != nil && d.B != nil {
				break
			}
		}
		r.FirstDivergence = d
	}
	r.Deltas = deltas(r.A, r.B)
	return r
}

// StepOf names step k of a run's steps.
func StepOf(run *Run, steps []Step, k int) *StepReport {
	s := steps[k]
	ev := run.Log.Event(s.Event)
	out := &StepReport{Step: k, Event: s.Event, EventID: ev.ID, Kind: s.Kind.String(), Tool: sanitize.Line(s.Tool), Summary: ev.Summary}
	if s.Kind == Action {
		out.Outcome = s.Outcome.String()
	}
	return out
}

// snapshotsOn counts the full_state snapshots on path p: events a watch
// sees on connecting and Cloud stores, but no agent-server's event log
// holds, so the same run counts the same wherever it was read.
func snapshotsOn(log *reducer.Log, p reducer.Path) int {
	if log.Snapshots() == 0 {
		return 0
	}
	n := 0
	for _, s := range p {
		for i := s.From; i <= s.To; i++ {
			if u, ok := log.Event(i).Body.(*model.StateUpdate); ok && u.FullState {
				n++
			}
		}
	}
	return n
}

// sideReport is a run's figures along path p, whose steps are steps.
func sideReport(run *Run, p reducer.Path, steps []Step) SideReport {
	tip := p.Tip()
	st := run.Log.Initial()
	if tip >= 0 {
		st = run.Log.At(tip)
	}
	v := st.Verdict(run.Ended)
	u := st.Metrics.Combined
	r := SideReport{
		Name: run.Name, Title: sanitize.Line(run.Title), Source: sanitize.Line(run.Source), ConversationID: run.ConversationID,
		Events: p.Len() - snapshotsOn(run.Log, p), Status: v.Short(), Verdict: v.String(),
		Cost:     format.Cost(u.CostUSD, u.CostKnown && st.MetricsReported()),
		Tokens:   Tokens{Prompt: u.Prompt, Completion: u.Completion, CacheRead: u.CacheRead, CacheWrite: u.CacheWrite},
		LLMCalls: u.LLMCalls, MetricsReported: st.MetricsReported(),
		Steps: len(steps), Errors: st.ErrorCount,
		ToolCalls: map[string]int{}, FilesEdited: []string{},
	}
	if u.CostKnown && st.MetricsReported() {
		cost := u.CostUSD
		r.CostUSD, r.cost, r.costOK = &cost, cost, true
	}
	if d, ok := duration(run.Log, p); ok {
		secs := d.Seconds()
		r.DurationSeconds, r.duration, r.timed = &secs, d, true
		r.Duration = format.Duration(d)
	} else {
		r.Duration = format.Unknown
	}
	files := map[string]bool{}
	for _, s := range steps {
		if s.Kind != Action {
			continue
		}
		r.ToolCalls[sanitize.Line(s.Tool)]++
		if path := editedPath(run.Log.Event(s.Event)); path != "" {
			files[path] = true
		}
	}
	r.FilesEdited = slices.Sorted(maps.Keys(files))
	if r.FilesEdited == nil {
		r.FilesEdited = []string{}
	}
	r.FinalMessage = finalMessage(run.Log, steps)
	return r
}

// duration is the time from the first to the last timed event of p.
func duration(log *reducer.Log, p reducer.Path) (time.Duration, bool) {
	var first, last time.Time
	for _, sp := range p {
		for i := sp.From; i <= sp.To; i++ {
			if t := log.Event(i).Time; !t.IsZero() {
				first = t
				break
			}
		}
		if !first.IsZero() {
			break
		}
	}
	for k := len(p) - 1; k >= 0 && last.IsZero(); k-- {
		for i := p[k].To; i >= p[k].From; i-- {
			if t := log.Event(i).Time; !t.IsZero() {
				last = t
				break
			}
		}
	}
	if first.IsZero() || last.IsZero() {
		return 0, false
	}
	return last.Sub(first), true
}

// editKinds are the actions that write a file, and the member of the
// action that names it.
var editKinds = map[string]string{
	"FileEditorAction":       "path",
	"StrReplaceEditorAction": "path",
	"WriteFileAction":        "file_path",
	"EditAction":             "file_path",
}

// editedPath is the file an action wrote, "" for one that wrote none (a
// view is no edit).
func editedPath(ev model.Event) string {
	a, ok := ev.Body.(*model.Action)
	if !ok {
		return ""
	}
	field, ok := editKinds[a.ActionKind]
	if !ok {
		return ""
	}
	args := member(ev.Raw, "action")
	if cmd, ok := stringValue(member(args, "command")); ok && (cmd == "view" || cmd == "undo_edit") {
		return ""
	}
	var path string
	if json.Unmarshal(member(args, field), &path) != nil {
		return ""
	}
	return sanitize.Line(path)
}

// finalMessageMax caps the final message the report quotes.
const finalMessageMax = 2000

// finalMessage is the last thing the agent said: its last message, or the
// message of a finish action after it.
func finalMessage(log *reducer.Log, steps []Step) string {
	for k := len(steps) - 1; k >= 0; k-- {
		s := steps[k]
		if s.Kind == UserMessage {
			return ""
		}
		ev := log.Event(s.Event)
		d, err := ev.Detail()
		if err != nil && d == nil {
			continue
		}
		var text string
		switch d := d.(type) {
		case *model.MessageEvent:
			text = d.Text()
		case *model.ActionEvent:
			if f, ok := d.Action.(*model.FinishAction); ok {
				text = f.Message
			}
		}
		if text = strings.TrimSpace(sanitize.Text(text)); text != "" {
			if len(text) > finalMessageMax {
				text = strings.ToValidUTF8(text[:finalMessageMax], "") + "…"
			}
			return text
		}
	}
	return ""
}
