package headless

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestFormatTimeIsTheLayouts holds the digit-by-digit form to
// time.Format over times of every field's range, other zones, the ends of
// the years it writes itself and years past them.
func TestFormatTimeIsTheLayouts(t *testing.T) {
	zone := time.FixedZone("x", -(9*3600 + 30*60))
	times := []time.Time{
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 6, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 3, 14, 9, 26, 53, 589_793_000, zone),
		time.Date(1999, 12, 31, 23, 59, 59, 1_000, zone),
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		times = append(times, time.Unix(r.Int64N(400*365*86400)-100*365*86400, r.Int64N(1e9)))
	}
	for _, at := range times {
		if got, want := formatTime(at), at.UTC().Format(timeLayout); got != want {
			t.Fatalf("%v: got %s, want %s", at, got, want)
		}
	}
	if formatTime(time.Time{}) != "" {
		t.Fatal("the zero time is written")
	}
}
