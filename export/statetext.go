package export

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// WriteStateText writes the state document for a person: one labelled line
// per value, the task checklist and the pending actions below.
func WriteStateText(w io.Writer, id, title string, d StateDoc) error {
	var b strings.Builder
	line := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "%-14s %s\n", label, fmt.Sprintf(format, args...))
	}
	line("conversation", "%s %s", sanitize.Line(id), sanitize.Line(title))
	if b := d.Branch; b != nil {
		which := "not HEAD"
		if b.Head {
			which = "HEAD"
		}
		line("events", "%d applied of %d%s on the branch to %s (%s: %d events, %d state updates); %d in all, %d branch points",
			d.At, b.PathEvents+b.StateUpdates, asOf(d.AsOf), sanitize.Line(b.Tip), which, b.PathEvents, b.StateUpdates, d.Events, b.BranchPoints)
	} else {
		line("events", "%d applied of %d%s", d.At, d.Events, asOf(d.AsOf))
	}
	line("status", "%s", d.Verdict)
	line("iteration", "%d in this run, %d steps in all", d.Iteration, d.Steps)
	mt := d.Metrics
	rep := mt.MetricsReported
	line("cost", "%s", costText(mt.UsageDoc, rep))
	if rep {
		line("tokens", "prompt %s · completion %s · cache read %s · cache write %s · reasoning %s",
			format.Count(mt.PromptTokens), format.Count(mt.CompletionTokens), format.Count(mt.CacheReadTokens),
			format.Count(mt.CacheWriteTokens), format.Count(mt.ReasoningTokens))
	} else {
		line("tokens", "%s", format.Unknown)
	}
	line("cache hit", "%s", cacheHitText(mt.UsageDoc, rep))
	line("context", "%s", contextText(mt.ContextUsed, mt.ContextWindow, rep))
	line("llm calls", "%s", format.Int(mt.LLMCalls, rep))
	for _, id := range sortedKeys(mt.ByUsage) {
		u := mt.ByUsage[id]
		line("  "+id, "%s · %d calls · prompt %s · completion %s", format.Cost(u.CostUSD, u.CostKnown),
			u.LLMCalls, format.Count(u.PromptTokens), format.Count(u.CompletionTokens))
	}
	line("tasks", "%s", tasksText(d.Tasks))
	for _, t := range d.Tasks {
		fmt.Fprintf(&b, "  %s %s\n", checkbox(t.Status), t.Title)
	}
	line("pending", "%d", len(d.PendingActions))
	for _, p := range d.PendingActions {
		risk := p.SecurityRisk
		if p.AnalyzerRisk != "" {
			risk += ", analyzer " + p.AnalyzerRisk
		}
		fmt.Fprintf(&b, "  [%s] %s: %s\n", risk, p.ToolName, p.Summary)
	}
	if q := d.Question; q != nil {
		questionText(&b, line, q)
	}
	line("errors", "%d", d.Errors)
	line("kinds", "%s", counts(d.Kinds))
	if len(d.UnknownKinds) > 0 {
		line("unknown kinds", "%s", counts(d.UnknownKinds))
	}
	line("duplicates", "%d", d.Duplicates)
	for _, warn := range d.Warnings {
		line("warning", "%s", warn)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// asOf says which event the state is as of, as the TUI numbers it
// (" (as of #3)"); "" when no event was applied.
func asOf(e *EventRef) string {
	if e == nil {
		return ""
	}
	return " (as of " + format.Event(e.Index) + ")"
}

// costText is a cost for a person: "unknown (no metrics reported)" when the
// conversation never reported its usage, so the reason is plain.
func costText(u UsageDoc, reported bool) string {
	if !reported {
		return format.Unknown + " (no metrics reported)"
	}
	return format.Cost(u.CostUSD, u.CostKnown)
}

// cacheHitText is the cache hit rate, unknown when nothing was reported.
func cacheHitText(u UsageDoc, reported bool) string {
	if !reported {
		return format.Unknown
	}
	return format.CacheHit(u.PromptTokens, u.CacheReadTokens)
}

// contextText is the context in use against the window: "40.1k / 200k".
func contextText(used, window int64, reported bool) string {
	if !reported {
		return format.Unknown
	}
	return format.Count(used) + " / " + format.Count(window)
}

// tasksText words a task list for the state text: "5: 2 done, 1 in
// progress, 2 todo", or "none".
func tasksText(tasks []TaskDoc) string {
	if len(tasks) == 0 {
		return "none"
	}
	var tally model.TaskTally
	for _, t := range tasks {
		tally.Add(t.Status)
	}
	// A status the tracker does not define is still to do.
	return fmt.Sprintf("%d: %d done, %d in progress, %d todo", len(tasks), tally.Done, tally.InProgress, tally.Todo+tally.Other)
}

func checkbox(status string) string {
	switch status {
	case "done":
		return "[x]"
	case "in_progress":
		return "[~]"
	}
	return "[ ]"
}

func counts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	parts := make([]string, 0, len(m))
	for _, k := range sortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(parts, " ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
