package format

import (
	"math"
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"},
		{1000, "1k"}, {1234, "1.23k"}, {1500, "1.5k"}, {9999, "10k"},
		{35_900, "35.9k"}, {35_949, "35.9k"}, {200_000, "200k"}, {999_499, "999k"},
		{999_500, "1M"}, {1_200_000, "1.2M"}, {4_500_000, "4.5M"}, {2_660_300_000, "2.66B"},
		{1_200_000_000_000, "1.2T"}, {999_000_000_000_000, "999T"},
		{math.MaxInt64, "9.22e18"}, {-35_900, "-35.9k"}, {math.MinInt64, "-9.22e18"},
	}
	for _, tt := range tests {
		if got := Count(tt.n); got != tt.want {
			t.Errorf("Count(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestExact(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {12345, "12,345"}, {100000, "100,000"}, {1234567, "1,234,567"}, {-1234, "-1,234"}} {
		if got := Exact(c.n); got != c.want {
			t.Errorf("Exact(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestUnreportedReadsUnknown(t *testing.T) {
	if got := Tokens(0, false); got != Unknown {
		t.Errorf("Tokens(0, false) = %q", got)
	}
	if got := Tokens(0, true); got != "0" {
		t.Errorf("Tokens(0, true) = %q", got)
	}
	if got := Int(0, false); got != Unknown {
		t.Errorf("Int(0, false) = %q", got)
	}
	if got := Int(12, true); got != "12" {
		t.Errorf("Int(12, true) = %q", got)
	}
}

func TestCostAndPercent(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{Cost(0, false), "unknown"},
		{Cost(0, true), "$0.00"},
		{Cost(0.0042, true), "$0.0042"},
		{Cost(12.345, true), "$12.35"},
		{Percent(1, 3), "33%"},
		{Percent(1, 0), "-"},
		{CacheHit(100, 40), "40%"},
		{CacheHit(100, 300), "75%"},
		{CacheHit(0, 0), "-"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: %q, want %q", i, tt.got, tt.want)
		}
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0ms"},
		{850 * time.Millisecond, "850ms"},
		{12300 * time.Millisecond, "12.3s"},
		{59940 * time.Millisecond, "59.9s"}, {59960 * time.Millisecond, "1m00s"},
		{4*time.Minute + 5*time.Second, "4m05s"},
		{2*time.Hour + 3*time.Minute, "2h03m"},
		{23*time.Hour + 59*time.Minute, "23h59m"},
		{4*day + 7*time.Hour + 12*time.Minute, "4d07h12m"},
		{108828 * time.Hour, "12y154d"},
		{3*year + 12*day + 5*time.Hour, "3y12d"},
		{-(time.Hour + 27*time.Minute), "-1h27m"},
		{-2 * time.Second, "-2.0s"},
		{time.Duration(math.MinInt64), "-292y171d"},
		{time.Duration(math.MaxInt64), "292y171d"},
	}
	for _, tt := range tests {
		if got := Duration(tt.d); got != tt.want {
			t.Errorf("Duration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestOffset(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		d    time.Duration
		want string
	}{
		{5 * time.Second, "+0:05"},
		{12*time.Minute + 3*time.Second, "+12:03"},
		{time.Hour + 2*time.Minute + 3*time.Second, "+1:02:03"},
		{99 * time.Hour, "+99:00:00"},
		{4*day + 7*time.Hour + 12*time.Minute, "+4d07h"},
		{3*year + 12*day, "+3y12d"},
		{-5 * time.Second, "-0:05"},
	}
	for _, tt := range tests {
		if got := Offset(start.Add(tt.d), start); got != tt.want {
			t.Errorf("Offset(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
	if got := Offset(time.Time{}, start); got != "--:--" {
		t.Errorf("unknown time: %q", got)
	}
	if got := Clock(time.Time{}); got != "--:--:--" {
		t.Errorf("unknown clock: %q", got)
	}
}

func TestVerdict(t *testing.T) {
	tests := []struct {
		status, source      string
		confirmed, recorded bool
		want, short         string
	}{
		{"finished", "inferred", false, true, "finished (recorded, inferred)", "finished"},
		{"finished", "base_state", true, true, "finished (recorded, base_state)", "finished"},
		{"finished", "full_state", true, false, "finished (confirmed, full_state)", "finished"},
		{"finished", "state_update", false, false, "finished? (provisional, per-field)", "finished?"},
		{"running", "state_update", false, false, "running (per-field)", "running"},
		{"error", "inferred", false, true, "error (recorded, inferred)", "error"},
		{"", "", false, true, "unknown", "unknown"},
	}
	for _, tt := range tests {
		if got := Verdict(tt.status, tt.source, tt.confirmed, tt.recorded); got != tt.want {
			t.Errorf("Verdict(%q, %q, %v, %v) = %q, want %q", tt.status, tt.source, tt.confirmed, tt.recorded, got, tt.want)
		}
		if got := Status(tt.status, tt.confirmed || tt.recorded); got != tt.short {
			t.Errorf("Status(%q) = %q, want %q", tt.status, got, tt.short)
		}
	}
}

func FuzzCountAndDuration(f *testing.F) {
	f.Add(int64(0))
	f.Add(int64(math.MaxInt64))
	f.Add(int64(math.MinInt64))
	f.Add(int64(999_500))
	f.Fuzz(func(t *testing.T, n int64) {
		if Count(n) == "" || Duration(time.Duration(n)) == "" {
			t.Fatal("empty output")
		}
	})
}
