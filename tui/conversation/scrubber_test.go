package conversation

import (
	"testing"
	"time"

	"ohwatch/format"
)

func TestMarkThresholdKeepsTheBarReadable(t *testing.T) {
	t.Parallel()
	sparse := []int{0, 1, 0, 2, 0, 0, 1, 0}
	if got := markThreshold(sparse, 4); got != 1 {
		t.Errorf("sparse marks: threshold %d, want 1 (every mark shows)", got)
	}
	dense := []int{3, 1, 4, 1, 5, 9, 2, 6}
	got := markThreshold(dense, 2)
	shown := 0
	for _, k := range dense {
		if k >= got {
			shown++
		}
	}
	if got != 6 || shown != 2 {
		t.Errorf("dense marks: threshold %d shows %d cells, want 6 showing the 2 densest", got, shown)
	}
}

func TestFormatOffsetPastHundredHours(t *testing.T) {
	t.Parallel()
	start := mustTime(t, "2026-01-01T00:00:00Z")
	for _, tt := range []struct {
		after string
		want  string
	}{
		{"2026-01-01T00:00:05Z", "+0:05"},
		{"2026-01-01T01:02:03Z", "+1:02:03"},
		{"2026-01-05T07:49:52Z", "+4d07h"},
	} {
		if got := format.Offset(mustTime(t, tt.after), start); got != tt.want {
			t.Errorf("format.Offset(%s) = %q, want %q", tt.after, got, tt.want)
		}
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}
