package tui

import (
	"testing"
	"time"
)

// TestCommonClock: a Common without a clock reads the wall clock; one
// with a clock reads that, and a copy handed on reads the same.
func TestCommonClock(t *testing.T) {
	t.Parallel()
	before := time.Now()
	if got := (Common{}).Clock(); got.Before(before) {
		t.Fatalf("no clock: %v, before %v", got, before)
	}
	at := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	c := Common{Now: func() time.Time { return at }}
	handed := c
	at = at.Add(time.Hour)
	if got := handed.Clock(); !got.Equal(at) {
		t.Fatalf("handed-on clock reads %v, want %v", got, at)
	}
}
