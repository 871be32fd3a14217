package model

// TaskTally is a task list counted by status: the one rule by which every
// surface (event summaries, the state text, the TUI's strip) counts tasks.
type TaskTally struct {
	Done, InProgress int
	// Todo counts "todo" and tasks without a status.
	Todo int
	// Other counts any status the tracker does not define.
	Other int
}

// Add counts one task of the status.
func (t *TaskTally) Add(status string) {
	switch status {
	case "done":
		t.Done++
	case "in_progress":
		t.InProgress++
	case "todo", "":
		t.Todo++
	default:
		t.Other++
	}
}

// Total is the number of tasks counted.
func (t TaskTally) Total() int { return t.Done + t.InProgress + t.Todo + t.Other }
