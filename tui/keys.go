package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/reducer"
)

// handleKey routes a key press: an open prompt, help, the kind picker and
// the inspector see it first; what they leave goes to the global keys.
func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.input.active() {
		return m.promptKey(msg)
	}
	st := m.state()
	k := m.activeKeys(st)
	if msg.String() == "ctrl+c" {
		return m, tea.Interrupt
	}
	if m.showHelp {
		switch {
		case key.Matches(msg, k.Quit):
			return m, tea.Quit
		case key.Matches(msg, k.Down):
			m = m.helpScroll(1)
		case key.Matches(msg, k.Up):
			m = m.helpScroll(-1)
		case key.Matches(msg, k.PageDown, k.HalfDown):
			m = m.helpScroll(max(m.helpArea().h/2, 1))
		case key.Matches(msg, k.PageUp, k.HalfUp):
			m = m.helpScroll(-max(m.helpArea().h/2, 1))
		default:
			m.showHelp, m.helpAt = false, 0
		}
		return m, nil
	}
	if m.picker.open {
		return m.pickerKey(msg)
	}
	if m.flash != "" && boundKey(msg, k) {
		// Any action the user takes replaces the message of the last
		// one; an action that has something to say sets its own.
		m.flash = ""
	}
	if msg.String() == "esc" && m.attn.status != "" && !m.insp.open {
		// The banner was seen; the list gets its lines back.
		m.attn = attention{}
		m.fixTop()
		return m, nil
	}
	if m.insp.open {
		if next, cmd, ok := m.inspectorKey(msg, k); ok {
			return next, cmd
		}
	} else if m.focus != paneList {
		if next, ok := m.paneScrollKey(msg, k); ok {
			return next, nil
		}
	}
	return m.globalKey(msg, k, st)
}

// inspectorKey answers the keys that mean something else in the
// inspector: scrolling, modes, folding, back.
func (m Model) inspectorKey(msg tea.KeyPressMsg, k KeyMap) (Model, tea.Cmd, bool) {
	page := max(m.layout().list.h-2, 1)
	switch {
	case key.Matches(msg, k.Back):
		m.insp.open = false
	case key.Matches(msg, k.Raw):
		m.insp.mode = toggleMode(m.insp.mode, modeRaw)
		m.insp.scroll, m.insp.line = 0, 0
	case key.Matches(msg, k.Diff):
		m.insp.mode = toggleMode(m.insp.mode, modeDiff)
		m.insp.scroll, m.insp.line = 0, 0
	case m.insp.mode == modeRaw && key.Matches(msg, k.Fold):
		m = m.toggleFold()
	case key.Matches(msg, k.Wrap):
		m.insp.nowrap, m.insp.xoff = !m.insp.nowrap, 0
		m.insp.scroll, m.insp.line = 0, 0
	case key.Matches(msg, k.Left):
		m.insp.xoff = max(m.insp.xoff-sidewaysStep, 0)
	case key.Matches(msg, k.Right):
		m.insp.xoff = min(m.insp.xoff+sidewaysStep, m.rawLongest())
	case key.Matches(msg, k.Down):
		m = m.inspectScroll(1)
	case key.Matches(msg, k.Up):
		m = m.inspectScroll(-1)
	case key.Matches(msg, k.PageDown):
		m = m.inspectScroll(page)
	case key.Matches(msg, k.PageUp):
		m = m.inspectScroll(-page)
	case key.Matches(msg, k.HalfDown):
		m = m.inspectScroll(page / 2)
	case key.Matches(msg, k.HalfUp):
		m = m.inspectScroll(-page / 2)
	case msg.String() == "home":
		m = m.inspectScroll(-1 << 30)
	case msg.String() == "end":
		m = m.inspectScroll(1 << 30)
	case key.Matches(msg, k.Inspect):
		// enter outside raw mode: nothing to fold.
	default:
		return m, nil, false
	}
	return m, nil, true
}

// sidewaysStep is how far ←/→ scroll unwrapped raw JSON.
const sidewaysStep = 16

// rawLongest is how far unwrapped raw JSON can scroll sideways: until its
// longest line's end is on screen.
func (m Model) rawLongest() int {
	r := m.layout().list
	lines, _ := m.insp.lines(m, r.w)
	longest := 0
	for _, l := range lines {
		longest = max(longest, textWidth(l))
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

// paneScrollKey scrolls the focused side pane with the movement keys.
func (m Model) paneScrollKey(msg tea.KeyPressMsg, k KeyMap) (Model, bool) {
	p := m.focus
	step := 1
	if p == paneTimeline {
		step = -1 // the timeline scrolls up from its newest line
	}
	page := 5 * step
	switch {
	case key.Matches(msg, k.Down):
		m.scroll[p] += step
	case key.Matches(msg, k.Up):
		m.scroll[p] -= step
	case key.Matches(msg, k.PageDown, k.HalfDown):
		m.scroll[p] += page
	case key.Matches(msg, k.PageUp, k.HalfUp):
		m.scroll[p] -= page
	case key.Matches(msg, k.Back):
		m.focus = paneList
	default:
		return m, false
	}
	m.scroll[p] = max(m.scroll[p], 0)
	// Clamp to the pane's content so scrolling back up answers at once.
	lines := len(m.sidePane(m.state(), p, m.sideWidth(), 0).lines)
	m.scroll[p] = min(m.scroll[p], max(lines-1, 0))
	return m, true
}

// sideWidth is how wide the side panes are drawn now.
func (m Model) sideWidth() int { return m.layout().side.w }

// globalKey answers the keys that apply everywhere.
func (m Model) globalKey(msg tea.KeyPressMsg, k KeyMap, st reducer.State) (tea.Model, tea.Cmd) {
	half := max(m.layout().list.h/2, 1)
	page := max(m.layout().list.h-2, 1)
	marks := func() reducer.Marks { return m.log.Marks() }
	var next Model
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
		return m, nil
	case key.Matches(msg, k.Down):
		next = m.moveTo(m.stepped(1))
	case key.Matches(msg, k.Up):
		next = m.moveTo(m.stepped(-1))
	case key.Matches(msg, k.Top):
		i := 0
		if !m.shows(0) {
			i, _ = m.nextShown(0)
		}
		next = m.moveTo(i)
	case key.Matches(msg, k.Bottom):
		next = m.moveTo(m.log.Len() - 1)
	case key.Matches(msg, k.HalfDown):
		next = m.moveTo(m.stepped(half))
	case key.Matches(msg, k.HalfUp):
		next = m.moveTo(m.stepped(-half))
	case key.Matches(msg, k.PageDown):
		next = m.moveTo(m.stepped(page))
	case key.Matches(msg, k.PageUp):
		next = m.moveTo(m.stepped(-page))
	case key.Matches(msg, k.NextError, k.PrevError):
		return m.jumpMark(marks().Errors, key.Matches(msg, k.NextError), "error")
	case key.Matches(msg, k.NextUser, k.PrevUser):
		return m.jumpMark(marks().UserTurns, key.Matches(msg, k.NextUser), "user turn")
	case key.Matches(msg, k.NextStatus, k.PrevStatus):
		return m.jumpMark(marks().StatusChanges, key.Matches(msg, k.NextStatus), "status change")
	case key.Matches(msg, k.Bookmark):
		return m.toggleBookmark()
	case key.Matches(msg, k.NextBookmark, k.PrevBookmark):
		return m.jumpBookmark(key.Matches(msg, k.NextBookmark))
	case key.Matches(msg, k.Jump):
		return m.openJump(), nil
	case key.Matches(msg, k.Search):
		return m.openSearch(), nil
	case key.Matches(msg, k.NextMatch):
		next = m.nextMatch(true)
	case key.Matches(msg, k.PrevMatch):
		next = m.nextMatch(false)
	case key.Matches(msg, k.Filter):
		m.picker.open = true
		return m, nil
	case key.Matches(msg, k.Noise):
		before := m
		m.filter.hideNoise = !m.filter.hideNoise
		return m.reanchor(before), nil
	case key.Matches(msg, k.TimeMode):
		m.timeMode = (m.timeMode + 1) % timeModeCount
		return m, nil
	case key.Matches(msg, k.Play):
		return m.togglePlay()
	case key.Matches(msg, k.Faster):
		return m.changeSpeed(true)
	case key.Matches(msg, k.Slower):
		return m.changeSpeed(false)
	case key.Matches(msg, k.Inspect):
		if m.focus != paneList {
			m.focus = paneList
		}
		return m.openInspector(), nil
	case key.Matches(msg, k.Copy):
		return m.copyEvent()
	case key.Matches(msg, k.Pager):
		return m, m.writePagerFile()
	case key.Matches(msg, k.Export):
		m.input = prompt{kind: promptExport}
		return m, nil
	case key.Matches(msg, k.Focus):
		m.focus = (m.focus + 1) % paneCount
		m.fixTop()
		return m, nil
	case key.Matches(msg, k.FocusPane):
		// The digit is the pane's place: 1 events … 5 pending.
		if d := msg.String(); len(d) == 1 && d[0] >= '1' && int(d[0]-'1') < int(paneCount) {
			m.focus = pane(d[0] - '1')
			m.fixTop()
		}
		return m, nil
	case key.Matches(msg, k.Accept, k.Reject):
		return m.askConfirm(key.Matches(msg, k.Accept))
	case msg.String() == "a" || msg.String() == "x":
		return m.setFlash("accept/reject apply only to a live conversation waiting for confirmation")
	default:
		return m, nil
	}
	return next.afterMove(m), nil
}

// afterMove keeps the inspector on the cursor's event when the cursor
// moved while it was open, and stops a running search from moving it.
func (m Model) afterMove(before Model) Model {
	if m.insp.open && m.cursor != before.cursor {
		m = m.openInspector()
	}
	if m.cursor != before.cursor {
		// The user went somewhere: a running search no longer moves.
		m.search.jump = false
	}
	return m
}

// jumpMark moves to the next or previous index in marks.
func (m Model) jumpMark(marks []int, forward bool, what string) (tea.Model, tea.Cmd) {
	i, ok := nextIn(marks, m.cursor, forward)
	if !ok {
		dir := "next"
		if !forward {
			dir = "previous"
		}
		return m.setFlash("no " + dir + " " + what)
	}
	return m.moveTo(i).afterMove(m), nil
}

// jumpBookmark moves to the next or previous bookmark, wrapping around at
// either end so ' and " cycle through all of them.
func (m Model) jumpBookmark(forward bool) (tea.Model, tea.Cmd) {
	n := len(m.bookmarks)
	if n == 0 {
		return m.setFlash("no bookmark: m sets one")
	}
	i, ok := nextIn(m.bookmarks, m.cursor, forward)
	if !ok {
		i = m.bookmarks[0]
		if !forward {
			i = m.bookmarks[n-1]
		}
	}
	return m.moveTo(i).afterMove(m), nil
}

// boundKey reports whether msg is bound to any action of the key map.
func boundKey(msg tea.KeyPressMsg, k KeyMap) bool {
	for _, g := range k.helpGroups() {
		if key.Matches(msg, g.bindings...) {
			return true
		}
	}
	return false
}

// toggleBookmark sets or clears a bookmark on the cursor's event.
func (m Model) toggleBookmark() (tea.Model, tea.Cmd) {
	if m.cursor < 0 {
		return m, nil
	}
	out := make([]int, 0, len(m.bookmarks)+1)
	found := false
	for _, b := range m.bookmarks {
		if b == m.cursor {
			found = true
			continue
		}
		out = append(out, b)
	}
	if !found {
		out = append(out, m.cursor)
		sortInts(out)
	}
	m.bookmarks = out
	if found {
		return m.setFlash("bookmark removed from " + ordinal(m.cursor))
	}
	return m.setFlash("bookmarked " + ordinal(m.cursor) + " (' next, \" previous)")
}

// isBookmarked reports whether event i has a bookmark.
func (m Model) isBookmarked(i int) bool {
	for _, b := range m.bookmarks {
		if b == i {
			return true
		}
	}
	return false
}

// sanitizeErr renders an error for the footer.
func sanitizeErr(err error) string { return model.SanitizeLine(err.Error()) }
