package model

import (
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
	}{
		{"2026-01-27T03:56:22.906445", time.Date(2026, 1, 27, 3, 56, 22, 906445000, time.UTC)},
		{"2026-01-27T03:56:22", time.Date(2026, 1, 27, 3, 56, 22, 0, time.UTC)},
		{"2026-01-27T03:56:22.9", time.Date(2026, 1, 27, 3, 56, 22, 900000000, time.UTC)},
		{"2026-01-27T03:56:22.123456789", time.Date(2026, 1, 27, 3, 56, 22, 123456789, time.UTC)},
		{"2026-01-27T03:56:22Z", time.Date(2026, 1, 27, 3, 56, 22, 0, time.UTC)},
		{"2026-01-27T03:56:22.5Z", time.Date(2026, 1, 27, 3, 56, 22, 500000000, time.UTC)},
		{"2026-01-27T05:56:22.906445+02:00", time.Date(2026, 1, 27, 3, 56, 22, 906445000, time.UTC)},
		{"2026-01-27T05:56:22+0200", time.Date(2026, 1, 27, 3, 56, 22, 0, time.UTC)},
		{"2026-01-27 03:56:22.906445", time.Date(2026, 1, 27, 3, 56, 22, 906445000, time.UTC)},
		{"2026-01-27T03:56:22.1234567891", time.Date(2026, 1, 27, 3, 56, 22, 123456789, time.UTC)},
		{"2026-01-27T03:56:22.1234567891Z", time.Date(2026, 1, 27, 3, 56, 22, 123456789, time.UTC)},
		{"2026-01-27T03:56", time.Date(2026, 1, 27, 3, 56, 0, 0, time.UTC)},
		{"2026-01-27", time.Date(2026, 1, 27, 0, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		got, err := ParseTime(tt.in)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "yesterday", "2026-13-45T00:00:00", "\x1b]0;x\x07"} {
		if _, err := ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q): no error", bad)
		} else {
			checkSafe(t, err.Error(), false)
		}
	}
}

func TestParseTimeNaiveDoesNotAllocate(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { _, _ = ParseTime("2026-01-27T03:56:22.906445") }); n != 0 {
		t.Errorf("ParseTime allocated %v times", n)
	}
}

func TestUnixFloatTime(t *testing.T) {
	got := UnixFloatTime(1757015025.9723232)
	if want := time.Date(2025, 9, 4, 19, 43, 45, 972323000, time.UTC); !got.Equal(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if !UnixFloatTime(0).IsZero() {
		t.Error("0 is not the zero time")
	}
}
