package conversation

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/tui/dialog"
)

// Update implements dialog.Dialog: the inspector's keys, the wheel over
// it, and what its commands return. Any other key (moving between events,
// answering, copying, the search's next event) it passes to the list.
func (in *inspector) Update(msg tea.Msg) dialog.Action {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return in.key(msg)
	case tea.MouseWheelMsg:
		return in.wheel(msg)
	case tea.MouseClickMsg:
		// A click on the inspector selects no row of the list under it.
		if mouse := msg.Mouse(); in.env.area.contains(mouse.X, mouse.Y) {
			return dialog.Run(nil)
		}
	case inspectedMsg:
		return dialog.Run(in.inspected(msg))
	case markdownRenderedMsg:
		in.markdownRendered(msg)
		return dialog.Run(nil)
	}
	return dialog.Pass()
}

// key answers the keys that mean something else in the inspector:
// scrolling, modes, folding, back.
func (in *inspector) key(msg tea.KeyPressMsg) dialog.Action {
	k := &in.env.keys
	page := max(in.env.area.h-2, 1)
	switch {
	case key.Matches(msg, k.Back, k.Quit):
		// The inspector is a screen over the list: esc and q go back.
		return dialog.Close(nil)
	case key.Matches(msg, k.Raw):
		in.mode = toggleMode(in.mode, modeRaw)
		in.scroll, in.line, in.hit = 0, 0, 0
	case key.Matches(msg, k.Diff):
		in.mode = toggleMode(in.mode, modeDiff)
		in.scroll, in.line, in.hit = 0, 0, 0
	case in.env.query != "" && key.Matches(msg, k.NextMatch, k.PrevMatch):
		// The matches inside the event first, then the next event's.
		forward := key.Matches(msg, k.NextMatch)
		if !in.nextHit(forward) {
			if !in.onlyMatch() {
				return dialog.Pass()
			}
			// The one matching event: round its matches again.
			in.hit, in.hitLast = 0, !forward
			in.firstHit()
		}
	case in.mode == modeRaw && key.Matches(msg, k.Fold):
		in.toggleFold()
	case key.Matches(msg, k.Wrap):
		in.nowrap, in.xoff = !in.nowrap, 0
		in.scroll, in.line, in.hit = 0, 0, 0
	case key.Matches(msg, k.Left):
		in.xoff = max(in.xoff-sidewaysStep, 0)
	case key.Matches(msg, k.Right):
		in.xoff = min(in.xoff+sidewaysStep, in.rawLongest())
	case key.Matches(msg, k.Down):
		in.scrollBy(1)
	case key.Matches(msg, k.Up):
		in.scrollBy(-1)
	case key.Matches(msg, k.PageDown):
		in.scrollBy(page)
	case key.Matches(msg, k.PageUp):
		in.scrollBy(-page)
	case key.Matches(msg, k.HalfDown):
		in.scrollBy(page / 2)
	case key.Matches(msg, k.HalfUp):
		in.scrollBy(-page / 2)
	case key.Matches(msg, k.Home):
		in.scrollBy(-1 << 30)
	case key.Matches(msg, k.End):
		in.scrollBy(1 << 30)
	case key.Matches(msg, k.Inspect):
		// enter outside raw mode: nothing to fold.
	default:
		return dialog.Pass()
	}
	return dialog.Run(nil)
}

// wheel scrolls the inspector by WheelStep rows a notch when the pointer
// is over it; elsewhere (a side pane) the wheel is the screen's.
func (in *inspector) wheel(msg tea.MouseWheelMsg) dialog.Action {
	mouse := msg.Mouse()
	if !in.env.area.contains(mouse.X, mouse.Y) {
		return dialog.Pass()
	}
	switch mouse.Button {
	case tea.MouseWheelDown:
		in.scrollBy(WheelStep)
	case tea.MouseWheelUp:
		in.scrollBy(-WheelStep)
	default:
		return dialog.Pass()
	}
	return dialog.Run(nil)
}

// sidewaysStep is how far ←/→ scroll unwrapped raw JSON.
const sidewaysStep = 16

// rawLongest is how far unwrapped raw JSON can scroll sideways: until its
// longest line's end is on screen.
func (in *inspector) rawLongest() int {
	r := in.env.area
	lines, _ := in.linesAt(r.w)
	longest := 0
	for _, l := range lines {
		longest = max(longest, in.env.cells.Width(l))
	}
	return max(longest-(r.w-rawGutter)+2, 0)
}

// toggleMode switches to mode, or back to the rendered view when already
// in it.
func toggleMode(cur, mode inspectMode) inspectMode {
	if cur == mode {
		return modeRendered
	}
	return mode
}

// scrollBy moves the inspector's view (or, in raw mode, its selected
// line) by n lines, keeping the selected line on screen.
func (in *inspector) scrollBy(n int) {
	r := in.env.area
	body := max(r.h-1, 1)
	lines, _ := in.linesAt(r.w)
	total := len(lines)
	if in.mode == modeRaw && in.data != nil && in.data.tree != nil {
		in.line = max(0, min(in.line+n, total-1))
		if in.line < in.scroll {
			in.scroll = in.line
		}
		if in.line >= in.scroll+body {
			in.scroll = in.line - body + 1
		}
		return
	}
	in.scroll = clampScroll(in.scroll+n, total, body)
}

// toggleFold folds or unfolds the container on the raw view's selected
// line.
func (in *inspector) toggleFold() {
	if in.mode != modeRaw {
		return
	}
	_, nodes := in.linesAt(in.env.area.w)
	if in.line < len(nodes) && nodes[in.line] != nil {
		n := nodes[in.line]
		n.folded = !n.folded
		in.data.folds++
		// Keep the selection on the container's first row.
		for in.line > 0 && nodes[in.line-1] == n {
			in.line--
		}
	}
}
