package reducer

import (
	"fmt"
	"strconv"

	"ohwatch/format"
)

// Change is one field of the derived state that an event changed.
type Change struct {
	Field  string
	Before string
	After  string
}

// Provenance names the events that last changed parts of the state as of
// an event: -1 when nothing has changed that part yet.
type Provenance struct {
	Status  int
	Metrics int
	Tasks   int
}

// Diff returns what event i changed in the derived state: the State after
// it against the State of its parent on its path.
func (l *Log) Diff(i int) []Change {
	if i < 0 || i >= l.Len() {
		return nil
	}
	return DiffStates(l.At(l.Parent(i)), l.At(i))
}

// Provenance returns the indices of the events that last changed the
// status, the metrics and the tasks as of event i.
func (l *Log) Provenance(i int) Provenance {
	s := l.At(i)
	return Provenance{Status: s.StatusAt, Metrics: s.MetricsAt, Tasks: s.Tasks.ChangedAt}
}

// DiffStates lists the fields that differ from a to b, in a fixed order.
func DiffStates(a, b State) []Change {
	var out []Change
	add := func(field, before, after string) {
		if before != after {
			out = append(out, Change{Field: field, Before: before, After: after})
		}
	}
	add("status", a.Status, b.Status)
	add("status source", string(a.StatusSource), string(b.StatusSource))
	add("status confirmed", strconv.FormatBool(a.StatusConfirmed), strconv.FormatBool(b.StatusConfirmed))
	add("confirmation policy", a.ConfirmationPolicy, b.ConfirmationPolicy)
	add("iteration", strconv.Itoa(a.Iteration), strconv.Itoa(b.Iteration))
	add("steps", strconv.Itoa(a.Steps), strconv.Itoa(b.Steps))
	ac, bc := a.Metrics.Combined, b.Metrics.Combined
	add("cost", format.Cost(ac.CostUSD, ac.CostKnown), format.Cost(bc.CostUSD, bc.CostKnown))
	add("prompt tokens", i64(ac.Prompt), i64(bc.Prompt))
	add("completion tokens", i64(ac.Completion), i64(bc.Completion))
	add("cache read tokens", i64(ac.CacheRead), i64(bc.CacheRead))
	add("cache write tokens", i64(ac.CacheWrite), i64(bc.CacheWrite))
	add("reasoning tokens", i64(ac.Reasoning), i64(bc.Reasoning))
	add("context used", i64(ac.ContextUsed), i64(bc.ContextUsed))
	add("context window", i64(ac.ContextWindow), i64(bc.ContextWindow))
	add("llm calls", strconv.Itoa(ac.LLMCalls), strconv.Itoa(bc.LLMCalls))
	add("tasks", tasksText(a.Tasks.Items, a.Tasks.ChangedAt), tasksText(b.Tasks.Items, b.Tasks.ChangedAt))
	add("tentative plan", tasksText(a.Tasks.Tentative, a.Tasks.TentativeAt), tasksText(b.Tasks.Tentative, b.Tasks.TentativeAt))
	add("pending", strconv.Itoa(len(a.Pending)), strconv.Itoa(len(b.Pending)))
	add("errors", strconv.Itoa(a.ErrorCount), strconv.Itoa(b.ErrorCount))
	add("history", strconv.Itoa(a.HistoryLen()), strconv.Itoa(b.HistoryLen()))
	return out
}

func i64(v int64) string { return strconv.FormatInt(v, 10) }

// tasksText summarises a checklist by its counts per status.
func tasksText(items []TaskItem, at int) string {
	if at < 0 {
		return "none"
	}
	var todo, doing, done int
	for _, t := range items {
		switch t.Status {
		case "in_progress":
			doing++
		case "done":
			done++
		default:
			todo++
		}
	}
	return fmt.Sprintf("%d items (%d todo, %d in progress, %d done)", len(items), todo, doing, done)
}
