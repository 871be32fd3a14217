package model

import (
	"fmt"
	"strings"
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

// TestCommonTimeAgreesWithTheLayouts checks the digit-by-digit reading of
// the common form against time.Parse on every form near it: each day of
// a leap and a plain year and the days past them, hours, minutes and
// seconds at and past their ends, fractions of every length, with and
// without Z or a space.
func TestCommonTimeAgreesWithTheLayouts(t *testing.T) {
	var inputs []string
	for _, y := range []string{"2024", "2026", "1900", "2000", "0000", "9999"} {
		for m := 0; m <= 13; m++ {
			for d := 0; d <= 32; d++ {
				inputs = append(inputs, fmt.Sprintf("%s-%02d-%02dT12:00:00", y, m, d))
			}
		}
	}
	for _, hms := range []string{"00:00:00", "23:59:59", "24:00:00", "23:60:00", "23:59:60", "99:99:99", "1a:00:00", "-1:00:00"} {
		inputs = append(inputs, "2026-03-14T"+hms)
	}
	base := "2026-03-14T09:50:58"
	for n := 0; n <= 12; n++ {
		frac := "." + strings.Repeat("7", n)
		inputs = append(inputs, base+frac, base+frac+"Z", base+frac+"z", strings.Replace(base+frac, "T", " ", 1), base+frac+"+01:00", base+frac+"x")
	}
	inputs = append(inputs, base+".", base+".5.5", base+".-5", "2026-3-14T09:50:58", "2026/03/14T09:50:58", " "+base, base+"ZZ")
	for _, in := range inputs {
		s := strings.TrimSpace(in)
		fast, ok := parseCommonTime(s)
		slow, err := parseTimeLayouts(s)
		if ok && (err != nil || !fast.Equal(slow) || fast.Location() != slow.Location()) {
			t.Errorf("%q: read as %v, time.Parse says %v, %v", in, fast, slow, err)
		}
		if !ok && err == nil && !strings.ContainsAny(s[min(len(s), 19):], "+-zx") && len(s) >= 19 && len(strings.TrimSuffix(s, "Z")) <= 29 {
			t.Errorf("%q: left to the layouts, which read it as %v", in, slow)
		}
	}
}

// FuzzParseTime checks that whatever the common form's reader accepts,
// time.Parse reads as the same instant.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2026-01-27T03:56:22.906445", "2024-02-29T23:59:59Z", "2026-01-27 03:56:22", "2026-02-29T00:00:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fast, ok := parseCommonTime(s)
		if !ok {
			return
		}
		slow, err := parseTimeLayouts(s)
		if err != nil || !fast.Equal(slow) || fast.Location() != slow.Location() {
			t.Fatalf("%q: read as %v, time.Parse says %v, %v", s, fast, slow, err)
		}
	})
}
