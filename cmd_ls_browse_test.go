package main

import (
	"testing"
	"time"
)

func TestBrowseRowsCarryTheListing(t *testing.T) {
	at := time.Date(2026, 1, 27, 9, 0, 0, 0, time.UTC)
	rows := []listing{
		{ID: "a", Title: "known", Status: "finished", Events: 12, CostUSD: 1.5, CostKnown: true, LastActivity: at, Path: "/c/a"},
		{ID: "b", Title: "cheap", Status: "finished", Events: 3, CostUSD: 0.004, CostKnown: true, Path: "/c/b"},
		{ID: "c", Title: "no price", Status: "running", Events: 40},
		{ID: "d", Title: "nothing known", Events: -1},
	}
	got := browseRowsOf(rows)
	want := []string{"$1.50", "$0.0040", "unknown", "unknown"}
	for i, r := range got {
		if r.Cost != want[i] {
			t.Errorf("row %s: cost %q, want %q", r.ID, r.Cost, want[i])
		}
		if r.ID != rows[i].ID || r.Title != rows[i].Title || r.Status != rows[i].Status || r.Events != rows[i].Events ||
			!r.LastActivity.Equal(rows[i].LastActivity) || r.Path != rows[i].Path {
			t.Errorf("row %d: %+v does not carry %+v", i, r, rows[i])
		}
	}
}
