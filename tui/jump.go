package tui

import (
	"sort"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
)

// jumpTo moves to an event given as a 1-based index, a time of day
// (HH:MM:SS, UTC, on the cursor event's day) or a full ISO time: the first
// event at or after that time.
func (m Model) jumpTo(text string) (tea.Model, tea.Cmd) {
	text = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), "#"))
	if text == "" {
		return m, nil
	}
	n := m.log.Len()
	if num, err := strconv.Atoi(text); err == nil {
		if num < 1 || num > n {
			return m.setFlash("no event " + text + " (1-" + itoa(n) + ")")
		}
		return m.moveTo(num - 1).afterMove(m), nil
	}
	t, ok := m.parseJumpTime(text)
	if !ok {
		return m.setFlash("not an index or a time: " + model.SanitizeLine(text))
	}
	i := sort.Search(n, func(i int) bool {
		et := m.log.Event(i).Time
		return !et.IsZero() && !et.Before(t)
	})
	if i >= n {
		return m.setFlash("no event at or after " + t.UTC().Format(time.RFC3339))
	}
	return m.moveTo(i).afterMove(m), nil
}

// parseJumpTime reads HH:MM:SS (on the day of the cursor's event, UTC) or
// a full timestamp.
func (m Model) parseJumpTime(text string) (time.Time, bool) {
	if clock, err := time.Parse("15:04:05", text); err == nil {
		day := m.log.Event(max(m.cursor, 0)).Time
		if day.IsZero() {
			day = m.cache.startTime(m.log)
		}
		day = day.UTC()
		return time.Date(day.Year(), day.Month(), day.Day(), clock.Hour(), clock.Minute(), clock.Second(), 0, time.UTC), true
	}
	if t, err := model.ParseTime(text); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// sortInts sorts event indices.
func sortInts(s []int) { sort.Ints(s) }
