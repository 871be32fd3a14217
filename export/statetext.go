package export

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"ohwatch/model"
)

// WriteStateText writes the state document for a person: one labelled line
// per value, the task checklist and the pending actions below.
func WriteStateText(w io.Writer, id, title string, d StateDoc) error {
	var b strings.Builder
	line := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "%-14s %s\n", label, fmt.Sprintf(format, args...))
	}
	line("conversation", "%s %s", model.SanitizeLine(id), model.SanitizeLine(title))
	line("events", "%d applied of %d", d.At, d.Events)
	status := d.ExecutionStatus
	if status == "" {
		status = "unknown"
	}
	confirmed := "provisional"
	if d.StatusConfirmed {
		confirmed = "confirmed"
	}
	line("status", "%s (%s, %s)", status, orNone(d.StatusSource), confirmed)
	line("iteration", "%d in this run, %d steps in all", d.Iteration, d.Steps)
	line("cost", "%s", Cost(d.Metrics.CostUSD, d.Metrics.CostKnown, d.Metrics.PromptTokens+d.Metrics.CompletionTokens))
	line("tokens", "prompt %s · completion %s · cache read %s · cache write %s · reasoning %s",
		Count(d.Metrics.PromptTokens), Count(d.Metrics.CompletionTokens), Count(d.Metrics.CacheReadTokens),
		Count(d.Metrics.CacheWriteTokens), Count(d.Metrics.ReasoningTokens))
	line("cache hit", "%s", CacheHit(d.Metrics.PromptTokens, d.Metrics.CacheReadTokens))
	line("context", "%s / %s", Count(d.Metrics.ContextUsed), Count(d.Metrics.ContextWindow))
	line("llm calls", "%d", d.Metrics.LLMCalls)
	for _, id := range sortedKeys(d.Metrics.ByUsage) {
		u := d.Metrics.ByUsage[id]
		line("  "+id, "%s · %d calls · prompt %s · completion %s", Cost(u.CostUSD, u.CostKnown, u.PromptTokens+u.CompletionTokens),
			u.LLMCalls, Count(u.PromptTokens), Count(u.CompletionTokens))
	}
	line("tasks", "%s", taskCounts(d.Tasks))
	for _, t := range d.Tasks {
		fmt.Fprintf(&b, "  %s %s\n", checkbox(t.Status), t.Title)
	}
	line("pending", "%d", len(d.PendingActions))
	for _, p := range d.PendingActions {
		fmt.Fprintf(&b, "  [%s] %s: %s\n", p.SecurityRisk, p.ToolName, p.Summary)
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

// Cost formats a cost honestly: "unknown" when tokens were spent and no
// price was reported, or when steps were taken and no metrics reported at
// all — never a false $0.
func Cost(usd float64, known bool, tokens int64) string {
	switch {
	case !known && tokens == 0:
		return "unknown (no metrics reported)"
	case !known:
		return "unknown"
	}
	if usd < 0.01 && usd > 0 {
		return fmt.Sprintf("$%.4f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}

// Count formats a token count compactly (1234 → 1.2k, 2500000 → 2.5M).
func Count(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprintf("%d", n)
}

// CacheHit is the SDK's cache hit rate: cache_read / prompt, or
// cache_read / (prompt + cache_read) when the reads are reported apart.
func CacheHit(prompt, cacheRead int64) string {
	den := prompt
	if cacheRead > prompt {
		den = prompt + cacheRead
	}
	if den == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(cacheRead)/float64(den))
}

func taskCounts(tasks []TaskDoc) string {
	if len(tasks) == 0 {
		return "none"
	}
	var done, doing, todo int
	for _, t := range tasks {
		switch t.Status {
		case "done":
			done++
		case "in_progress":
			doing++
		default:
			todo++
		}
	}
	return fmt.Sprintf("%d: %d done, %d in progress, %d todo", len(tasks), done, doing, todo)
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
