package conversation

import (
	tea "charm.land/bubbletea/v2"

	"ohwatch/theme"
	"ohwatch/tui"
)

// The view composes four models that find their way through the log: the
// search (finder, search.go), the narrowing (narrower, narrow.go), the
// jump to an event number or a time (jumper, jump.go) and the replay
// (player, play.go). Each owns its state, its keys and its commands; the
// view hands each what it reads (the log, the cursor, the keys, the
// address of its messages) and carries out the outcome it returns. The
// methods below are the view's entry points to them, which the prompts
// and the key handling call.

// outcome is what a find model asks of the view after a step: to put the
// cursor on an event as a jump does (travel) or as a plain move does
// (moveTo), to say something in the footer, and to run a command. The
// models never reach into the view: it carries out their outcome.
type outcome struct {
	cmd tea.Cmd
	// to is the event the cursor goes to when move is set; travel says
	// it goes there as a jump (the inspector follows, a search stops
	// moving it).
	to           int
	move, travel bool
	flash        string
}

// jumpTo asks for the cursor to go to event i, as a jump.
func (o *outcome) jumpTo(i int) { o.to, o.move, o.travel = i, true, true }

// moveTo asks for the cursor to go to event i.
func (o *outcome) moveTo(i int) { o.to, o.move, o.travel = i, true, false }

// carry carries out a find model's outcome: the cursor moves, the footer
// says its word, and the command runs.
func (m *Conversation) carry(o outcome) tea.Cmd {
	if o.move {
		if o.travel {
			m.travel(o.to)
		} else {
			m.moveTo(o.to)
		}
	}
	if o.flash == "" {
		return o.cmd
	}
	flash := m.setFlash(o.flash)
	if o.cmd == nil {
		return flash
	}
	return tea.Batch(o.cmd, flash)
}

// startSearch starts a search for query over every event, cancelling the
// one it replaces; jump moves to the first match after the cursor when
// one is found. An empty query clears the search.
func (m *Conversation) startSearch(query string, jump, quiet bool) tea.Cmd {
	return m.search.start(m.Addr(), m.Log, m.cursor, query, jump, quiet)
}

// searchNew extends the search over the events logged since it last
// looked.
func (m *Conversation) searchNew() tea.Cmd {
	return m.carry(m.search.extend(m.Addr(), m.Log))
}

// clearSearch drops the search and its marks (esc in the list).
func (m *Conversation) clearSearch() tea.Cmd { return m.carry(m.search.clear()) }

// searchStatus is the footer's word on the search, in styles s.
func (m *Conversation) searchStatus(s theme.Styles) string { return m.search.status(s, m.cursor) }

// searchProgress takes what a search command found.
func (m *Conversation) searchProgress(msg searchProgressMsg) tea.Cmd {
	return m.carry(m.search.progress(msg, m.Addr(), m.Log))
}

// nextMatch moves to the next (or previous) match, wrapping around; k is
// the active key map.
func (m *Conversation) nextMatch(msg tea.KeyPressMsg, k tui.KeyMap) tea.Cmd {
	o, _ := m.search.key(msg, k, m.cursor)
	return m.carry(o)
}

// listRows are the event indices of the list window's rows (none when
// the list has no room).
func (m *Conversation) listRows() []int {
	if h := m.layout().list.h - 1; h > 0 { // the list's first line is its title
		return m.visibleRows(h)
	}
	return nil
}

// place places the list as a narrowing's step asks; rows are the list's
// rows before the step.
func (m *Conversation) place(p placement, rows []int) {
	switch p {
	case placeFix:
		m.fixTop()
	case placeAnew:
		m.reanchor(m.cursor, rows)
	}
}

// openNarrow opens the | prompt with the narrowing in force to edit.
func (m *Conversation) openNarrow() {
	in := NewTextInput()
	if q := m.narrow.query(); q != "" {
		in.SetValue(q)
		in.CursorEnd()
	}
	m.openPrompt(Prompt{Kind: promptNarrow, in: in})
}

// setNarrowing puts the typed narrowing in force (empty: none) and places
// the list anew, as a change of the kind filter does; a long log is read
// by the command returned, the list placed anew when it is read.
func (m *Conversation) setNarrowing(q string) tea.Cmd {
	rows := m.listRows()
	cmd, err := m.narrow.set(q, m.Addr(), m.Log)
	if err != nil {
		return m.setFlash("narrow: " + err.Error())
	}
	m.reanchor(m.cursor, rows)
	return cmd
}

// narrowNew reads the events logged since the narrowing last looked.
func (m *Conversation) narrowNew() tea.Cmd { return m.narrow.extend(m.Addr(), m.Log) }

// narrowProgress takes what a narrowing's command read.
func (m *Conversation) narrowProgress(msg narrowProgressMsg) tea.Cmd {
	if !m.narrow.current(msg) {
		return nil
	}
	rows := m.listRows()
	cmd, p := m.narrow.progress(msg, m.Addr(), m.Log)
	m.place(p, rows)
	return cmd
}

// seekNarrowed is seekShown under a narrowing: the nearest event after i
// (forward) or before it that the narrowing keeps, the kind filter lets
// through and lies on the branch shown.
func (m *Conversation) seekNarrowed(i int, forward bool) (int, bool) {
	path, linear := m.shownPath()
	return m.narrow.seek(i, forward, func(j int) bool {
		ev := m.Log.Event(j)
		return m.filter.shows(shortKind(&ev)) && (linear || path.Contains(j))
	})
}

// jumpTo moves to the event text names (an event number or a time: jumper).
func (m *Conversation) jumpTo(text string) tea.Cmd {
	return m.carry(m.jump.to(text, m.Log, m.cursor, m.cache.startTime(m.Log)))
}

// reel is what the replay reads of the view.
func (m *Conversation) reel() reel {
	return reel{log: m.Log, cursor: m.cursor, next: m.nextShown, to: m.Addr()}
}

// playKey answers the replay's keys (k is the active key map).
func (m *Conversation) playKey(msg tea.KeyPressMsg, k tui.KeyMap) tea.Cmd {
	o, _ := m.play.key(msg, k, m.keys, m.reel())
	return m.carry(o)
}

// playTick steps the replay one event.
func (m *Conversation) playTick(msg playTickMsg) tea.Cmd { return m.carry(m.play.tick(msg, m.reel())) }
