package conversation

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/reducer"
	"ohwatch/tui"
)

// handleKey routes a key press: an open prompt, help, the kind picker and
// the inspector see it first; what they leave goes to the global keys.
func (m *Conversation) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, took := m.promptInput(msg); took {
		return cmd
	}
	st := m.state()
	k := m.activeKeys(st)
	if key.Matches(msg, k.Interrupt) {
		return tea.Interrupt
	}
	m.fitDialogs(k)
	if cmd, took := m.dialogKey(msg, k); took {
		return cmd
	}
	if cmd, ok := m.retryKeyPressed(msg); ok {
		return cmd
	}
	if m.Flash != "" && boundKey(msg, k) {
		// Any action the user takes replaces the message of the last
		// one; an action that has something to say sets its own.
		m.Flash = ""
	}
	if key.Matches(msg, k.Back) && m.attn.status != "" {
		// The banner was seen; the list gets its lines back. Opened from
		// another screen (the fleet), esc goes back there at once, as it
		// does everywhere: going back is what dismisses the banner.
		m.attn = attention{}
		m.fixTop()
		if !m.AtRoot() && m.focus == paneList {
			return tui.Back()
		}
		return nil
	}
	if key.Matches(msg, k.Back) && m.search.query != "" && m.focus == paneList {
		// esc drops the search first, as it closes what is open: its
		// marks and n/N go, the list stays where it is.
		return m.clearSearch()
	}
	if m.focus != paneList && !m.inspecting() {
		if m.paneScrollKey(msg, k) {
			return nil
		}
	}
	return m.globalKey(msg, k, st)
}

// paneScrollKey scrolls the focused side pane with the movement keys.
func (m *Conversation) paneScrollKey(msg tea.KeyPressMsg, k tui.KeyMap) bool {
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
		return false
	}
	m.scroll[p] = max(m.scroll[p], 0)
	// Clamp to the pane's content so scrolling back up answers at once.
	lines := len(m.sidePane(m.state(), &m.keys, p, m.sideWidth(), 0).lines)
	m.scroll[p] = min(m.scroll[p], max(lines-1, 0))
	return true
}

// sideWidth is how wide the side panes are drawn now.
func (m *Conversation) sideWidth() int { return m.layout().side.w }

// globalKey answers the keys that apply everywhere.
func (m *Conversation) globalKey(msg tea.KeyPressMsg, k tui.KeyMap, st reducer.State) tea.Cmd {
	half := max(m.layout().list.h/2, 1)
	page := max(m.layout().list.h-2, 1)
	marks := func() reducer.Marks { return m.Log.Marks() }
	before := m.cursor
	switch {
	case key.Matches(msg, k.Quit):
		// Back one screen; at the root, the program ends.
		return tui.Pop()
	case key.Matches(msg, k.Help):
		m.openHelp()
		return nil
	case key.Matches(msg, k.Down):
		m.moveTo(m.stepped(1))
	case key.Matches(msg, k.Up):
		m.moveTo(m.stepped(-1))
	case key.Matches(msg, k.Top):
		i := 0
		if !m.shows(0) {
			i, _ = m.nextShown(0)
		}
		m.moveTo(i)
	case key.Matches(msg, k.Bottom):
		m.moveTo(m.lastShownEvent())
	case key.Matches(msg, k.HalfDown):
		m.moveTo(m.stepped(half))
	case key.Matches(msg, k.HalfUp):
		m.moveTo(m.stepped(-half))
	case key.Matches(msg, k.PageDown):
		m.moveTo(m.stepped(page))
	case key.Matches(msg, k.PageUp):
		m.moveTo(m.stepped(-page))
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
		m.openJump()
		return nil
	case key.Matches(msg, k.Search):
		m.openSearch()
		return nil
	case key.Matches(msg, k.NextMatch, k.PrevMatch):
		cmd := m.nextMatch(msg, k)
		m.afterMove(before)
		if !key.Matches(msg, k.NextMatch) {
			// The inspector, reopened on the previous matching event,
			// starts at its last match.
			m.inspectFromLastHit()
		}
		return cmd
	case key.Matches(msg, k.Filter):
		m.openPicker()
		return nil
	case key.Matches(msg, k.Narrow):
		m.openNarrow()
		return nil
	case key.Matches(msg, k.Guards):
		m.openGuards()
		return nil
	case key.Matches(msg, k.Noise):
		f := m.filter
		f.hideNoise = !f.hideNoise
		m.setFilter(f)
		return nil
	case key.Matches(msg, k.TimeMode):
		m.timeMode = (m.timeMode + 1) % tui.TimeModeCount
		return nil
	case key.Matches(msg, m.keys.Play, m.keys.Faster, m.keys.Slower):
		// The replay's keys; disabled while live, they say so (player.key).
		return m.playKey(msg, k)
	case key.Matches(msg, k.Inspect):
		if m.focus != paneList {
			m.focus = paneList
		}
		m.openInspector()
		return nil
	case key.Matches(msg, k.Copy):
		return m.copyEvent()
	case key.Matches(msg, k.CopyText):
		return m.copyLookedAt()
	case key.Matches(msg, k.Edit):
		return m.editChangedFile()
	case key.Matches(msg, k.Pager):
		return m.writePagerFile()
	case key.Matches(msg, k.Export):
		m.openPrompt(Prompt{Kind: promptExport})
		return nil
	case key.Matches(msg, k.Zoom):
		return m.toggleZoom()
	case key.Matches(msg, k.Focus):
		m.focus = (m.focus + 1) % paneCount
		m.fixTop()
		return nil
	case key.Matches(msg, k.FocusPane):
		// The digit is the pane's place: 1 events … 5 pending.
		if d := msg.String(); len(d) == 1 && d[0] >= '1' && int(d[0]-'1') < int(paneCount) {
			m.focus = pane(d[0] - '1')
			m.fixTop()
		}
		return nil
	case key.Matches(msg, m.keys.Accept, m.keys.Reject) && m.openQuestion() != nil:
		// A question waits for an answer, never for an approval.
		return m.askAnswer()
	case key.Matches(msg, k.Accept, k.Reject):
		return m.askConfirm(key.Matches(msg, k.Accept))
	case key.Matches(msg, m.keys.Accept, m.keys.Reject):
		// Disabled now (k): said rather than ignored.
		return m.setFlash("accept/reject apply only to a live conversation waiting for confirmation")
	case key.Matches(msg, k.Back):
		// Nothing open to close: back to the screen under the view
		// (nothing at the root).
		return tui.Back()
	case key.Matches(msg, m.keys.Fork):
		// Matched even while disabled, so a refusal says why.
		return m.askFork()
	case key.Matches(msg, m.keys.Navigate):
		return m.askNavigate()
	case key.Matches(msg, m.keys.Branches):
		return m.askBranch()
	case key.Matches(msg, m.keys.OpenLink):
		return m.askOpenLink()
	case key.Matches(msg, m.keys.PauseRun, m.keys.ResumeRun, m.keys.InterruptRun, m.keys.Message, m.keys.Policy):
		// Matched even while disabled, so a refusal says why.
		what, _ := controlOf(m.keys, msg)
		return m.controlKey(what)
	case key.Matches(msg, m.keys.Warnings):
		return m.openWarnings()
	case key.Matches(msg, m.keys.CompareParent):
		return m.askCompareParent()
	default:
		return nil
	}
	m.afterMove(before)
	return nil
}

// afterMove keeps the inspector on the cursor's event when the cursor
// moved while it was open, and stops a running search from moving it.
// before is where the cursor was.
func (m *Conversation) afterMove(before int) {
	if m.inspecting() && m.cursor != before {
		m.openInspector()
	}
	if m.cursor != before {
		// The user went somewhere: a running search no longer moves.
		m.search.stopJumping()
	}
}

// travel moves the cursor to event i as a jump does: the inspector
// follows it and a running search stops moving it.
func (m *Conversation) travel(i int) {
	before := m.cursor
	m.moveTo(i)
	m.afterMove(before)
}

// jumpMark moves to the next or previous index in marks.
func (m *Conversation) jumpMark(marks []int, forward bool, what string) tea.Cmd {
	i, ok := nextIn(marks, m.cursor, forward)
	if !ok {
		dir := "next"
		if !forward {
			dir = "previous"
		}
		return m.setFlash("no " + dir + " " + what)
	}
	m.travel(i)
	return nil
}

// jumpBookmark moves to the next or previous bookmark, wrapping around at
// either end so ' and " cycle through all of them.
func (m *Conversation) jumpBookmark(forward bool) tea.Cmd {
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
	m.travel(i)
	return nil
}

// boundKey reports whether msg is bound to an action of the key map that
// applies now (k is the active map).
func boundKey(msg tea.KeyPressMsg, k tui.KeyMap) bool {
	return key.Matches(msg, k.All()...)
}

// toggleBookmark sets or clears a bookmark on the cursor's event.
func (m *Conversation) toggleBookmark() tea.Cmd {
	if m.cursor < 0 {
		return nil
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
		return m.setFlash("bookmark removed from " + tui.Ordinal(m.cursor))
	}
	return m.setFlash("bookmarked " + tui.Ordinal(m.cursor) + " (' next, \" previous)")
}

// SanitizeErr renders an error for the footer.
func SanitizeErr(err error) string { return sanitize.Line(err.Error()) }
