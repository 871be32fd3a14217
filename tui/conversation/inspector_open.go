package conversation

import (
	tea "charm.land/bubbletea/v2"

	"ohwatch/tui"
	"ohwatch/tui/dialog"
)

// The conversation's side of the inspector: it opens it on the cursor's
// event, moves it with the cursor, tells it what it reads of the screen,
// and reads back only what the rest of the view depends on (the event
// y and o act on, the mode that enables raw JSON's keys).

// openInspector opens the inspector on the cursor's event, or moves the
// open one there. What it shows is built in a command (a large event
// takes longer than a frame: its typed decode, the JSON tree, the
// markdown); meanwhile it says "rendering…", and a build for an event or
// width no longer shown is dropped.
func (m *Conversation) openInspector() {
	if m.cursor < 0 {
		return
	}
	job := m.inspectJobFor(m.cursor)
	in, open := m.insp()
	if !open {
		in = newInspector(m.Log, m.inspNowrap)
		m.overlay.Open(in)
	}
	in.show(&job)
	m.tellInspector()
}

// insp is the open inspector, if one is open.
func (m *Conversation) insp() (*inspector, bool) {
	return dialog.As[*inspector](&m.overlay)
}

// inspecting reports whether the inspector is open.
func (m *Conversation) inspecting() bool { return m.overlay.IsOpen(inspectorID) }

// inspectJobFor takes what building the inspector's view of event i
// needs (the inspector and the pager build it alike).
func (m *Conversation) inspectJobFor(i int) inspectJob {
	job := inspectJob{
		to: m.Addr(), index: i,
		ev: m.Log.Event(i), styles: m.styles,
		diff: m.Log.Diff(i), links: m.linkLines(i),
		md:        m.markdownWant(),
		renderers: m.markdown,
	}
	job.resultIndex = -1
	if r, ok := m.Log.ResultOf(i); ok {
		// Read by the command: a result may be megabytes of output.
		job.log, job.resultIndex = m.Log, r
	}
	job.analysis = m.analysisOf(i)
	return job
}

// tellInspector tells the open inspector what it reads of the screen now
// (inspectEnv): before each message it may take and each frame.
func (m *Conversation) tellInspector() {
	in, open := m.insp()
	if !open {
		return
	}
	list := m.layout().list
	in.env = inspectEnv{
		keys: m.activeKeys(m.state()), styles: m.styles, cells: m.Cells, area: list,
		query: m.search.query, matches: m.search.matches, zoomed: m.zoom,
		md: markdownKey{list.w, m.markdownStyle(), m.Cells}, renderers: m.markdown, to: m.Addr(),
	}
}

// startInspect is the open inspector's build, once per event it is shown;
// Update returns it beside its own.
func (m *Conversation) startInspect() tea.Cmd {
	if in, open := m.insp(); open {
		return in.start()
	}
	return nil
}

// refreshMarkdown has the open inspector's markdown rendered again for
// the width, palette and width model now.
func (m *Conversation) refreshMarkdown() tea.Cmd {
	in, open := m.insp()
	if !open {
		return nil
	}
	return in.refreshMarkdown(m.markdownWant(), m.markdown, m.Addr())
}

// inspectFromLastHit has the inspector, moved to the previous matching
// event by N, open on that event's last match.
func (m *Conversation) inspectFromLastHit() {
	if in, open := m.insp(); open {
		in.fromLastHit()
	}
}

// dialogKey gives a key to the open dialogs, the top one first. A key the inspector reads on top is an action the
// user takes, as the list's are: it replaces the last one's message. What the
// inspector leaves as it closes, its raw view's wrapping, the next one
// opens with.
func (m *Conversation) dialogKey(msg tea.KeyPressMsg, k tui.KeyMap) (tea.Cmd, bool) {
	in, open := m.insp()
	if open && m.overlay.Top() == in && m.Flash != "" && boundKey(msg, k) {
		m.Flash = ""
	}
	cmd, took := m.overlay.Update(msg)
	if open && !m.inspecting() {
		m.inspNowrap = in.nowrap
	}
	return cmd, took
}
