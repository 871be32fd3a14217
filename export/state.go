package export

import (
	"encoding/json"
	"io"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/reducer"
)

// StateDoc is the JSON of `ohwatch state --json`: exactly these keys, so
// scripts can rely on them. ID and Title name the conversation, and the
// status is "status", as in every JSON ohwatch prints (ls, fleet,
// headless, compare).
type StateDoc struct {
	ID              string       `json:"id"`
	Title           string       `json:"title"`
	Events          int          `json:"events"`
	At              int          `json:"at"`
	ExecutionStatus string       `json:"status"`
	StatusSource    string       `json:"status_source"`
	StatusConfirmed bool         `json:"status_confirmed"`
	StatusFinal     bool         `json:"status_final"`
	Verdict         string       `json:"verdict"`
	Iteration       int          `json:"iteration"`
	Steps           int          `json:"steps"`
	Metrics         MetricsDoc   `json:"metrics"`
	Tasks           []TaskDoc    `json:"tasks"`
	PendingActions  []PendingDoc `json:"pending_actions"`
	// Question is the open ask_user question the conversation waits on;
	// absent when none is open.
	Question     *QuestionDoc   `json:"question,omitempty"`
	Errors       int            `json:"errors"`
	Kinds        map[string]int `json:"kinds"`
	UnknownKinds map[string]int `json:"unknown_kinds"`
	Duplicates   int            `json:"duplicates"`
	Warnings     []string       `json:"warnings"`
	// Branch says which path of a branched conversation (SDK v1.31+) the
	// document follows; absent for a linear one.
	Branch *BranchDoc `json:"branch,omitempty"`
	// AsOf is the last event applied, numbered as every surface numbers
	// it; absent when none was (--at 0).
	AsOf *EventRef `json:"as_of,omitempty"`
}

// EventRef names one event: Index counts from 0, N from 1 as a person
// reads it ("#N" in the TUI, the headless lines and `state`).
type EventRef struct {
	Index int    `json:"index"`
	N     int    `json:"n"`
	ID    string `json:"id"`
}

// BranchDoc is the path a state document of a branched conversation
// follows: At counts its events, not the log's. Upstream's tree holds no
// state updates (they are state-sync artifacts, reducer.Log.PathNodes), so
// the tip and the count of events are the tree's, as the SDK's
// leaf_event_id and active_branch() give them; the state updates folded
// along the path are counted apart.
type BranchDoc struct {
	// Tip is the id of the path's last tree event: leaf_event_id on HEAD's
	// path, never a state update.
	Tip string `json:"tip_event_id"`
	// Head is true for HEAD's path: the conversation as it goes on.
	Head bool `json:"head"`
	// PathEvents is the number of tree events on the path.
	PathEvents int `json:"path_events"`
	// StateUpdates is the number of state updates (state-sync artifacts,
	// not tree nodes) folded along the path; At counts them too.
	StateUpdates int `json:"state_updates"`
	// BranchPoints is the number of events with more than one child.
	BranchPoints int `json:"branch_points"`
}

// UsageDoc is the metrics of one usage id, or of all combined.
type UsageDoc struct {
	CostUSD          float64 `json:"cost_usd"`
	CostKnown        bool    `json:"cost_known"`
	PromptTokens     int64   `json:"prompt_tokens"`
	CompletionTokens int64   `json:"completion_tokens"`
	CacheReadTokens  int64   `json:"cache_read_tokens"`
	CacheWriteTokens int64   `json:"cache_write_tokens"`
	ReasoningTokens  int64   `json:"reasoning_tokens"`
	LLMCalls         int     `json:"llm_calls"`
	ContextUsed      int64   `json:"context_used"`
	ContextWindow    int64   `json:"context_window"`
}

// MetricsDoc is the combined usage plus the usage per usage id.
// MetricsReported comes first: when it is false no metrics were ever
// reported, and the zeros that follow (kept so scripts find every key) mean
// "unknown", not "none".
type MetricsDoc struct {
	MetricsReported bool `json:"metrics_reported"`
	UsageDoc
	ByUsage map[string]UsageDoc `json:"by_usage"`
}

// TaskDoc is one checklist item.
type TaskDoc struct {
	Title  string `json:"title"`
	Notes  string `json:"notes"`
	Status string `json:"status"`
}

// PendingDoc is one action awaiting its result or a confirmation.
type PendingDoc struct {
	ID           string `json:"id"`
	ToolName     string `json:"tool_name"`
	Summary      string `json:"summary"`
	SecurityRisk string `json:"security_risk"`
	// AnalyzerRisk is the security analyzer's verdict on the action,
	// which may differ from the LLM's SecurityRisk; absent when none.
	AnalyzerRisk string `json:"analyzer_risk,omitempty"`
}

// State builds the state document after the first n events of HEAD's path
// (every event of a linear log; n > the path's length means all of them).
// recorded says log is a recording that has ended: after its last event,
// its last status is final (reducer.Verdict).
func State(log *reducer.Log, n int, warnings []string, recorded bool) StateDoc {
	return StateOn(log, log.HeadPath(), n, warnings, recorded)
}

// StateOn is State after the first n events of path p of log's tree. The
// end of any path of a recording that has ended is final: nothing more
// will be written on it.
func StateOn(log *reducer.Log, p reducer.Path, n int, warnings []string, recorded bool) StateDoc {
	if n < 0 || n > p.Len() {
		n = p.Len()
	}
	s := log.At(p.At(n - 1))
	if n == p.Len() && p.Tip() == log.Head() {
		// HEAD's state: after a navigate it carries the server's status
		// (reducer.Log.Latest).
		s = log.Latest()
	}
	v := s.Verdict(recorded && n == p.Len())
	doc := StateDoc{
		Events:          log.Len(),
		At:              n,
		ExecutionStatus: s.Status,
		StatusSource:    string(s.StatusSource),
		StatusConfirmed: s.StatusConfirmed,
		StatusFinal:     v.Final(),
		Verdict:         v.String(),
		Iteration:       s.Iteration,
		Steps:           s.Steps,
		Metrics:         metricsDoc(s.Metrics, s.MetricsReported()),
		Tasks:           []TaskDoc{},
		PendingActions:  []PendingDoc{},
		Errors:          s.ErrorCount,
		Kinds:           nonNil(s.Kinds()),
		UnknownKinds:    nonNil(s.UnknownKinds()),
		Duplicates:      log.Duplicates(),
		Warnings:        sanitized(warnings),
	}
	if n > 0 {
		i := p.At(n - 1)
		doc.AsOf = &EventRef{Index: i, N: format.EventN(i), ID: sanitize.Line(log.Event(i).ID)}
	}
	if !log.Linear() {
		nodes, artifacts := log.PathNodes(p)
		doc.Branch = &BranchDoc{Tip: sanitize.Line(log.Event(log.NodeTip(p)).ID), Head: p.Tip() == log.Head(),
			PathEvents: nodes, StateUpdates: artifacts, BranchPoints: len(log.BranchPoints())}
	}
	for _, t := range s.Tasks.Items {
		doc.Tasks = append(doc.Tasks, TaskDoc{Title: sanitize.Line(t.Title), Notes: sanitize.Text(t.Notes), Status: t.Status})
	}
	for _, p := range s.Pending {
		doc.PendingActions = append(doc.PendingActions, PendingDoc{ID: sanitize.Line(p.ID), ToolName: sanitize.Line(p.ToolName),
			Summary: sanitize.Line(p.Summary), SecurityRisk: p.SecurityRisk, AnalyzerRisk: sanitize.Line(p.AnalyzerRisk)})
	}
	doc.Question = questionDoc(s.Question)
	return doc
}

// Named is the document of the conversation id titled title ("" where
// not known).
func (d StateDoc) Named(id, title string) StateDoc {
	d.ID, d.Title = sanitize.Line(id), sanitize.Line(title)
	return d
}

// WriteState writes the state document as indented JSON.
func WriteState(w io.Writer, doc StateDoc) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func metricsDoc(m reducer.Metrics, reported bool) MetricsDoc {
	doc := MetricsDoc{MetricsReported: reported, UsageDoc: usageDoc(m.Combined), ByUsage: map[string]UsageDoc{}}
	for _, u := range m.ByUsage {
		doc.ByUsage[sanitize.Line(u.UsageID)] = usageDoc(u)
	}
	return doc
}

func usageDoc(u reducer.Usage) UsageDoc {
	return UsageDoc{
		CostUSD:          u.CostUSD,
		CostKnown:        u.CostKnown,
		PromptTokens:     u.Prompt,
		CompletionTokens: u.Completion,
		CacheReadTokens:  u.CacheRead,
		CacheWriteTokens: u.CacheWrite,
		ReasoningTokens:  u.Reasoning,
		LLMCalls:         u.LLMCalls,
		ContextUsed:      u.ContextUsed,
		ContextWindow:    u.ContextWindow,
	}
}

func nonNil(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[sanitize.Line(k)] = v
	}
	return out
}

func sanitized(in []string) []string {
	out := make([]string, 0, len(in))
	for _, s := range in {
		out = append(out, sanitize.Line(s))
	}
	return out
}
