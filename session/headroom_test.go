package session

import "testing"

// TestGOGCFor: a small load keeps the default; a big one allows garbage
// of a share of its JSON, within bounds.
func TestGOGCFor(t *testing.T) {
	for _, c := range []struct {
		read, live int64
		want       int
	}{
		{read: 150 << 20, live: 30 << 20, want: 100},        // 100k events: the default
		{read: 1400 << 20, live: 240 << 20, want: 23},       // 1M events: 56 MiB of garbage
		{read: 1400 << 20, live: 2000 << 20, want: minGOGC}, // never below the floor
		{read: 0, live: 0, want: 100},
	} {
		if got, _ := gogcFor(c.read, c.live); got != c.want {
			t.Errorf("gogcFor(%d MiB read, %d MiB live) = %d, want %d", c.read>>20, c.live>>20, got, c.want)
		}
	}
}
