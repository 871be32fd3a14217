package fleetview

import (
	tea "charm.land/bubbletea/v2"

	"ohwatch/fleet"
	"ohwatch/tui/conversation"
)

// The fleet answers the mouse as the monitor does: the wheel scrolls the
// rows (moving the cursor, wheelStep rows a notch), a click selects the
// row under it, and a click on the row already selected opens it, so a
// double click opens (the first click selects). A click on a column's
// name sorts by it; on the sort column again it reverses the order.

// handleWheel moves the cursor with the wheel, as j and k do.
func (f *Fleet) handleWheel(msg tea.MouseWheelMsg) tea.Cmd {
	if f.busyForMouse() {
		return nil
	}
	switch msg.Mouse().Button {
	case tea.MouseWheelDown:
		f.flash = ""
		f.move(conversation.WheelStep)
	case tea.MouseWheelUp:
		f.flash = ""
		f.move(-conversation.WheelStep)
	}
	return nil
}

// handleClick selects, opens or sorts by what is under a left click.
func (f *Fleet) handleClick(msg tea.MouseClickMsg) tea.Cmd {
	mouse := msg.Mouse()
	if mouse.Button != tea.MouseLeft || f.busyForMouse() {
		return nil
	}
	switch {
	case mouse.Y == 1:
		if c, ok := f.columnAt(mouse.X); ok {
			f.flash = ""
			f.sortBy(c)
		}
	case mouse.Y >= 2 && mouse.Y < 2+f.bodyHeight():
		i, ok := f.rowAtLine(f.top + mouse.Y - 2)
		if !ok {
			return nil
		}
		f.flash = ""
		if i == f.cursor {
			return f.open()
		}
		f.move(i - f.cursor)
	}
	return nil
}

// busyForMouse reports whether the table is asking or typing something
// that a click must not slip past: the help, the filter line, a question.
func (f *Fleet) busyForMouse() bool {
	return f.overlay.Len() > 0 || f.filtering || f.ask.active()
}

// sortBy sorts by column c, or reverses the order when c is already the
// sort column.
func (f *Fleet) sortBy(c fleet.Column) {
	if f.query.Sort == c {
		f.query.Desc = !f.query.Desc
	} else {
		f.query.Sort, f.query.Desc = c, false
	}
	f.arrange()
}

// columnAt is the column whose name is drawn at screen column x.
func (f *Fleet) columnAt(x int) (fleet.Column, bool) {
	cols := f.columns()
	titleW := f.titleWidth(cols)
	at := fleetMarkWidth + titleW
	if x >= fleetMarkWidth && x < at {
		return fleet.ColTitle, true
	}
	for _, c := range cols {
		at++ // the gap before the column
		if x >= at && x < at+c.width {
			return c.col, true
		}
		at += c.width
	}
	return 0, false
}

// rowAtLine is the row drawn on body line n (a group heading is none).
func (f *Fleet) rowAtLine(n int) (int, bool) {
	line := 0
	for i := range f.rows {
		if _, ok := f.heads[i]; ok {
			if line == n {
				return 0, false
			}
			line++
		}
		if line == n {
			return i, true
		}
		line++
		if line > n {
			break
		}
	}
	return 0, false
}
