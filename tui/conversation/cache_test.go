package conversation

import (
	"strings"
	"testing"

	"ohwatch/tui/internal/tuitest"
)

// TestListRendersOnlyVisibleRowsAndCachesThem checks the virtual list: a
// frame renders the window's rows only, and a second frame takes them from
// the cache (an edited cache entry shows through).
func TestListRendersOnlyVisibleRowsAndCachesThem(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Generated(t, 5000, 8)}, 160, 48)
	m.moveTo(2500)
	_ = screen(m)
	rows := m.visibleRows(m.layout().list.h - 1)
	if n := len(m.cache.rows); n == 0 || n > len(rows) {
		t.Fatalf("%d rows cached for a window of %d", n, len(rows))
	}
	var key rowKey
	for k := range m.cache.rows {
		if k.index != m.cursor {
			key = k
			break
		}
	}
	m.cache.rows[key] = strings.Repeat("x", key.width-2)
	if !strings.Contains(screen(m), strings.Repeat("x", key.width-2)) {
		t.Fatal("the second frame re-rendered a cached row")
	}
	// A new width is a new key: rows are rendered again for it.
	next, _ := send(m, tuitest.WindowSize(120, 40))
	if strings.Contains(screen(next), strings.Repeat("x", 100)) {
		t.Fatal("a stale row survived a resize")
	}
}

// TestStateIsComputedOncePerCursor checks that a frame asks the log for the
// state only when the cursor or the log changed.
func TestStateIsComputedOncePerCursor(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Generated(t, 300, 8)}, 160, 48)
	m.moveTo(150)
	_ = screen(m)
	if !m.cache.stateOK || m.cache.stateIdx != 150 {
		t.Fatal("state not cached for the cursor")
	}
	m.cache.stateVal.Iteration = 987654
	if !strings.Contains(screen(m), "iter 987654") {
		t.Fatal("the state was recomputed for an unchanged cursor")
	}
	m, _ = press(t, m, "j")
	if strings.Contains(screen(m), "iter 987654") {
		t.Fatal("a moved cursor kept the old state")
	}
}
