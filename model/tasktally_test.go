package model

import "testing"

func TestTaskTally(t *testing.T) {
	var tally TaskTally
	for _, s := range []string{"done", "done", "in_progress", "todo", "", "blocked"} {
		tally.Add(s)
	}
	if want := (TaskTally{Done: 2, InProgress: 1, Todo: 2, Other: 1}); tally != want || tally.Total() != 6 {
		t.Errorf("tally %+v (total %d), want %+v", tally, tally.Total(), want)
	}
}
