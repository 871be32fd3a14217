package conversation

import (
	tea "charm.land/bubbletea/v2"
)

// WheelStep is how many rows one wheel notch moves.
const WheelStep = 3

// handleWheel scrolls what is under the pointer: the inspector, a side
// pane, or the event list (moving the cursor).
func (m *Conversation) handleWheel(msg tea.MouseWheelMsg) tea.Cmd {
	mouse := msg.Mouse()
	n := 0
	switch mouse.Button {
	case tea.MouseWheelDown:
		n = WheelStep
	case tea.MouseWheelUp:
		n = -WheelStep
	default:
		return nil
	}
	l := m.layout()
	switch {
	case l.list.contains(mouse.X, mouse.Y) && !m.listCovered():
		m.moveTo(m.stepped(n))
		return nil
	case l.side.contains(mouse.X, mouse.Y):
		if p, ok := m.sidePaneAt(l, mouse.Y); ok {
			if p == paneTimeline {
				n = -n // the timeline scrolls up from its newest line
			}
			m.scroll[p] = max(m.scroll[p]+n, 0)
		}
	}
	return nil
}

// handleClick selects the clicked row of the list, focuses a clicked side
// pane, or moves the cursor to a clicked scrubber cell.
func (m *Conversation) handleClick(msg tea.MouseClickMsg) tea.Cmd {
	mouse := msg.Mouse()
	if mouse.Button != tea.MouseLeft {
		return nil
	}
	l := m.layout()
	switch {
	case l.list.contains(mouse.X, mouse.Y) && !m.listCovered():
		row := mouse.Y - l.list.y - 1 // the first line is the title
		rows := m.visibleRows(l.list.h - 1)
		if row >= 0 && row < len(rows) {
			m.focus = paneList
			m.moveTo(rows[row])
			return nil
		}
	case l.scrubber.contains(mouse.X, mouse.Y) && m.Log.Len() > 0:
		m.travel(indexOfCell(mouse.X, m.Log.Len(), l.scrubber.w))
		return nil
	case l.side.contains(mouse.X, mouse.Y):
		if p, ok := m.sidePaneAt(l, mouse.Y); ok {
			m.focus = p
		}
	}
	return nil
}

// sidePaneAt finds the side pane at screen row y.
func (m *Conversation) sidePaneAt(l screenLayout, y int) (pane, bool) {
	if l.compact || l.zoomed {
		return m.focus, m.focus != paneList
	}
	order, heights, _ := m.sideLayout(m.state(), &m.keys, l.side)
	top := l.side.y
	for k, h := range heights {
		if y >= top && y < top+h {
			return order[k], true
		}
		top += h
	}
	return paneList, false
}
