package conversation

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/tui/internal/tuitest"
)

// listRows returns the event rows the list pane shows (lines that start
// with the marker column and an event number), and whether the cursor's
// row is among them.
func listWindow(m *Conversation) (rows int, cursorShown bool) {
	l := m.layout()
	lines := strings.Split(screen(m), "\n")
	for _, line := range lines[l.list.y+1 : l.list.y+l.list.h] {
		cells := []rune(line)
		if len(cells) > l.list.w {
			cells = cells[:l.list.w]
		}
		text := strings.TrimSpace(string(cells[min(2, len(cells)):]))
		if strings.HasPrefix(text, "#") {
			rows++
			if strings.HasPrefix(string(cells), m.styles.Glyphs.Cursor) {
				cursorShown = true
			}
		}
	}
	return rows, cursorShown
}

// TestResizeReanchorsList: after any resize the list keeps the cursor in
// view and fills its pane, whether the window grew or shrank, at the end of
// the log, its start or in the middle.
func TestResizeReanchorsList(t *testing.T) {
	t.Parallel()
	sizes := [][2]int{{120, 30}, {40, 10}, {120, 30}, {200, 60}, {60, 15}, {80, 24}, {30, 6}, {160, 48}}
	for _, keys := range [][]string{{"G"}, {"g"}, {":"}} {
		t.Run(keys[0], func(t *testing.T) {
			m := newModel(Options{Log: tuitest.Generated(t, 500, 3)}, 120, 30)
			if keys[0] == ":" {
				m = jumpTo(t, m, "250")
			} else {
				m, _ = press(t, m, keys...)
			}
			for _, size := range sizes {
				m, _ = send(m, tea.WindowSizeMsg{Width: size[0], Height: size[1]})
				want := m.layout().list.h - 1
				rows, shown := listWindow(m)
				if !shown {
					t.Fatalf("%s, resized to %dx%d: the cursor's row is not on the screen\n%s", keys[0], size[0], size[1], screen(m))
				}
				if rows != want {
					t.Fatalf("%s, resized to %dx%d: %d event rows in a list of %d\n%s", keys[0], size[0], size[1], rows, want, screen(m))
				}
			}
		})
	}
}

// TestFilterFillsWindow: hiding noise with the cursor near the end leaves
// no blank rows below the last event.
func TestFilterFillsWindow(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Generated(t, 500, 3)}, 120, 30)
	m, _ = press(t, m, "G")
	for range 2 {
		m, _ = press(t, m, "F")
		rows, shown := listWindow(m)
		if want := m.layout().list.h - 1; rows != want || !shown {
			t.Fatalf("after F: %d of %d rows, cursor shown %v\n%s", rows, want, shown, screen(m))
		}
	}
}

// TestPlayIndicatorIsOneGlyph: while a replay plays the header shows the
// play mark in place of the pause mark, never both; paused, only the pause
// mark.
func TestPlayIndicatorIsOneGlyph(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Generated(t, 50, 1)}, 160, 48)
	g := m.styles.Glyphs
	header := func(m *Conversation) string { return strings.Split(screen(m), "\n")[1] }
	if h := header(m); !strings.Contains(h, g.Pinned+" 1/50") || strings.Contains(h, g.Playing) {
		t.Fatalf("paused: %q", h)
	}
	m, _ = press(t, m, "space")
	if h := header(m); !strings.Contains(h, g.Playing+" 1/50") || strings.Contains(h, g.Pinned) {
		t.Fatalf("playing: %q", h)
	}
	m, _ = press(t, m, "space")
	if h := header(m); strings.Contains(h, g.Playing) || !strings.Contains(h, g.Pinned) {
		t.Fatalf("paused again: %q", h)
	}
}
