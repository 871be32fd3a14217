package tui

import (
	tea "charm.land/bubbletea/v2"
)

// wheelStep is how many rows one wheel notch moves.
const wheelStep = 3

// handleWheel scrolls what is under the pointer: the inspector, a side
// pane, or the event list (moving the cursor).
func (m Model) handleWheel(msg tea.MouseWheelMsg) (tea.Model, tea.Cmd) {
	mouse := msg.Mouse()
	n := 0
	switch mouse.Button {
	case tea.MouseWheelDown:
		n = wheelStep
	case tea.MouseWheelUp:
		n = -wheelStep
	default:
		return m, nil
	}
	l := m.layout()
	switch {
	case l.list.contains(mouse.X, mouse.Y) && m.insp.open:
		return m.inspectScroll(n), nil
	case l.list.contains(mouse.X, mouse.Y) && !m.showHelp && !m.picker.open:
		return m.moveTo(m.stepped(n)), nil
	case l.side.contains(mouse.X, mouse.Y):
		if p, ok := m.sidePaneAt(l, mouse.Y); ok {
			if p == paneTimeline {
				n = -n // the timeline scrolls up from its newest line
			}
			m.scroll[p] = max(m.scroll[p]+n, 0)
		}
	}
	return m, nil
}

// handleClick selects the clicked row of the list, focuses a clicked side
// pane, or moves the cursor to a clicked scrubber cell.
func (m Model) handleClick(msg tea.MouseClickMsg) (tea.Model, tea.Cmd) {
	mouse := msg.Mouse()
	if mouse.Button != tea.MouseLeft {
		return m, nil
	}
	l := m.layout()
	switch {
	case l.list.contains(mouse.X, mouse.Y) && !m.insp.open && !m.showHelp && !m.picker.open:
		row := mouse.Y - l.list.y - 1 // the first line is the title
		rows := m.visibleRows(l.list.h - 1)
		if row >= 0 && row < len(rows) {
			m.focus = paneList
			return m.moveTo(rows[row]), nil
		}
	case l.scrubber.contains(mouse.X, mouse.Y) && m.log.Len() > 0:
		return m.moveTo(indexOfCell(mouse.X, m.log.Len(), l.scrubber.w)).afterMove(m), nil
	case l.side.contains(mouse.X, mouse.Y):
		if p, ok := m.sidePaneAt(l, mouse.Y); ok {
			m.focus = p
		}
	}
	return m, nil
}

// sidePaneAt finds the side pane at screen row y.
func (m Model) sidePaneAt(l screenLayout, y int) (pane, bool) {
	if l.compact {
		return m.focus, m.focus != paneList
	}
	order, heights, _ := m.sideLayout(m.state(), l.side)
	top := l.side.y
	for k, h := range heights {
		if y >= top && y < top+h {
			return order[k], true
		}
		top += h
	}
	return paneList, false
}
