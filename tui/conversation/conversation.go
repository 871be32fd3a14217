package conversation

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/dialog"
	"ohwatch/tui/text"
)

// pane names the panes that take focus with tab.
type pane int

const (
	paneList pane = iota
	paneTimeline
	paneMetrics
	paneTasks
	panePending
	paneCount
)

// title is the heading a pane shows.
func (p pane) title() string {
	return [...]string{"Events", "Status timeline", "Metrics", "Tasks", "Pending"}[p]
}

// Conversation is the view of one conversation: a Screen that owns its
// log, its feed, its cursor, its panes and their caches. It holds view
// state only: the conversation itself lives in the Log and the reducer
// derives every value a pane shows from it, as of the cursor. It is a
// pointer, changed in place by Update; the router keeps it alive while
// another screen is on top, so its feed keeps draining and the messages
// addressed to it (addr) still reach it.
type Conversation struct {
	// Base is the view's screen id, which addresses the messages of its
	// commands, and whether it is the bottom screen, where q quits rather
	// than going back (the router says, SetAtRoot).
	tui.Base
	// trail is the breadcrumb of the screens this view was pushed over
	// ("fleet", a parent's title); nil at the root.
	trail []string
	// Common is how the view draws, measures and answers (its width
	// model as the router last told it, its clock, its keys), handed on
	// whole to the views it opens.
	tui.Common
	Opts   Options
	keys   tui.KeyMap
	Log    *reducer.Log
	styles theme.Styles
	colour tui.Colours
	width  int
	height int

	// guarded is where Options.Guards stand (guards.go).
	guarded guardView

	// cursor is the selected event's index in the log; -1 while it is empty.
	cursor int
	// follow keeps the cursor on the newest event while a live source
	// records; moving the cursor pins it.
	follow bool
	// pinnedLen is the log length when the cursor was pinned: the header
	// counts the events recorded since.
	pinnedLen int
	// startAt is Options.StartAt until the cursor has been put there (or
	// the user moved it first).
	startAt string
	// top is the first event index the list window considers.
	top int

	conn     *model.ConnState
	feedDone bool
	// wasLive is set once a live source's socket was live: a session that
	// never connected ends with the exit code of an unreachable source.
	wasLive bool
	// liveStatus is the latest status as of the last batch, and attn the
	// status that needs the user, until seen (attention.go).
	liveStatus string
	attn       attention
	// retryLeft is what remains of a reconnect's wait, counted down each
	// second; retryGen drops the ticks of an older wait.
	retryLeft time.Duration
	retryGen  int
	// progress is how far a loading source has got; nil when the source
	// reports none.
	progress *model.Progress
	// warns are the warnings the source gave (the header counts them, W
	// lists them: warnings.go); warnAt is the line the list was left on.
	warns  []warning
	warnAt int
	// runtime is what the server says of the conversation's runtime and
	// archive (runtime.go), shown beside the connection.
	runtime model.Runtime

	focus  pane
	scroll [paneCount]int
	// zoom gives the focused pane (or the inspector) the whole width
	// (Z, zoom.go).
	zoom   bool
	filter kindFilter
	// narrow is the text filter (|, narrow.go); none shows all.
	narrow narrower
	// timeMode is how the list prints each event's time (t cycles it).
	timeMode tui.TimeMode

	// overlay is the stack of open dialogs, drawn over the list; the top
	// one reads the keys first (tui/dialog).
	overlay dialog.Overlay
	// picking is what the view keeps of its kind pickers (picker.go).
	picking pickerState
	// inspNowrap is the inspector's raw wrapping as the last one left it,
	// kept for the next (inspector.nowrap).
	inspNowrap bool
	// links are the conversations that came from this one, as the last
	// refresh of opts.Links listed them (links.go).
	links []Link
	// markdown renders messages for the inspector, in commands.
	markdown *text.Markdown
	// search, jump and play find their way through the log: the search
	// (/ n N), the jump (:) and the replay (space + -), each a model of
	// its own (find.go).
	search    finder
	jump      jumper
	play      player
	bookmarks []int
	Flash     string
	flashID   int

	// cache memoises what is costly to recompute each frame.
	cache renderCache
	// tree is what the view knows about forking and navigating (fork.go).
	tree treeView
}

// NewConversation builds the view of one conversation at 80×24 (SetSize
// or a window size message gives it its real size). A nil Log starts an
// empty one.
func NewConversation(opts Options) *Conversation {
	return NewConversationWith(opts.Common(), opts)
}

// NewConversationWith builds the view of a conversation that holds c, the
// Common of the view that opens it (its display, keys, programs, width
// model and clock), in place of the one opts would give.
func NewConversationWith(c tui.Common, opts Options) *Conversation {
	opts.SetCommon(c)
	keys := opts.KeyMap
	if len(keys.Quit.Keys()) == 0 {
		keys = tui.DefaultKeyMap()
	}
	c.KeyMap = keys
	if opts.Log == nil {
		opts.Log = reducer.NewLog(nil, 0)
	}
	m := &Conversation{
		Base:   tui.NewBase(),
		Common: c,
		Opts:   opts,
		keys:   keys,
		Log:    opts.Log,
		colour: tui.NewColours(opts.Theme, opts.Profile, opts.NoColor),
		width:  80,
		height: 24,
		cursor: -1,
		filter: defaultFilter(),
		play:   newPlayer(),
		cache:  newRenderCache(),

		markdown: &text.Markdown{},
	}
	m.SetAtRoot(true) // until the router says otherwise
	m.styles = m.colour.Styles()
	if n := m.Log.Len(); n > 0 {
		m.cursor = 0
		if opts.Live {
			m.cursor = n - 1
		}
	}
	if !opts.Live {
		m.startAt = opts.StartAt
		m.seekStart()
	}
	m.follow = opts.Live
	m.pinnedLen = m.Log.Len()
	m.fixTop()
	return m
}

// Init starts waiting on the feed and asks the terminal for its background
// colour (the answer picks the light or dark palette under --theme auto).
func (m *Conversation) Init() tea.Cmd {
	// The links' listing is read now, so that it is ready by the time an
	// event is inspected, and then every linksEvery.
	// Guards judge what the log already holds (a loaded recording).
	return tea.Batch(m.waitFeed(), m.colour.Init(), m.refreshLinks(true), m.guardNew())
}

// SetSize implements Screen: the view draws width×height cells from now on.
func (m *Conversation) SetSize(width, height int) {
	m.width, m.height = width, height
	m.fixTop()
}

// resized implements resizable: the inspector's markdown is rendered
// again for the new width.
func (m *Conversation) Resized() tea.Cmd { return m.refreshMarkdown() }

// setCells implements measured: the view drops the rows it measured under
// the other model and has the inspector's markdown wrapped again.
func (m *Conversation) SetCells(c text.Cells) tea.Cmd {
	if c == m.Cells {
		return nil
	}
	m.Cells = c
	m.cache.clearRows()
	return m.refreshMarkdown()
}

// Update implements Screen. Messages addressed to another view never
// reach it: the router delivers each to its own. Opening the inspector
// (enter, or moving while it is open) only asks for its view: the view is
// built by the command Update returns.
func (m *Conversation) Update(msg tea.Msg) tea.Cmd {
	m.tellInspector()
	cmd := m.update(msg)
	if inspect := m.startInspect(); inspect != nil {
		return tea.Batch(cmd, inspect)
	}
	return cmd
}

// update handles one message.
func (m *Conversation) update(msg tea.Msg) tea.Cmd {
	if cmd, took := m.promptPaste(msg); took {
		return cmd
	}
	if _, key := msg.(tea.KeyPressMsg); !key {
		// The open dialogs see the rest first: the results of their
		// commands, and the mouse and pastes of the top one. Keys go
		// through handleKey, which lets ctrl+c and a prompt come first.
		if cmd, took := m.overlay.Update(msg); took {
			return cmd
		}
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.SetSize(msg.Width, msg.Height)
		return m.Resized()
	case tea.BackgroundColorMsg, tea.ColorProfileMsg:
		if m.colour.Update(msg) {
			m.styles = m.colour.Styles()
			m.cache.clearRows()
		}
		return m.refreshMarkdown()
	case BatchMsg:
		return m.ingest(msg.Batch)
	case feedClosedMsg:
		m.feedDone = true
		if !m.Opts.Live {
			// A loaded recording has no newest event to follow.
			m.follow = false
		}
		if log := m.Log; log.Large() {
			// The load's garbage goes back to the system (off the
			// UI's goroutine: it is a full collection).
			return func() tea.Msg { log.Settle(); return nil }
		}
		return nil
	case dialogAnswer:
		return msg.answer(m)
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseWheelMsg:
		return m.handleWheel(msg)
	case tea.MouseClickMsg:
		return m.handleClick(msg)
	case searchProgressMsg:
		return m.searchProgress(msg)
	case narrowProgressMsg:
		return m.narrowProgress(msg)
	case playTickMsg:
		return m.playTick(msg)
	case retryTickMsg:
		return m.retryTicked(msg)
	case respondDoneMsg:
		return m.respondDone(msg)
	case answerDoneMsg:
		return m.answerDone(msg)
	case controlDoneMsg:
		return m.controlDone(msg)
	case ControlProgressMsg:
		return tea.Batch(m.setFlash(msg.Text), msg.Next)
	case promptSubmittedMsg:
		return m.promptSubmitted(msg)
	case promptCancelledMsg:
		return m.promptCancelled(msg)
	case promptEditedMsg:
		return m.promptEdited(msg)
	case guardDoneMsg:
		return m.guardDone(msg)
	case linksRefreshedMsg:
		return m.linksRefreshed(msg)
	case refreshLinksMsg:
		return m.refreshLinks(true)
	case ForkDoneMsg:
		return m.forkDone(msg)
	case navigateDoneMsg:
		return m.navigateDone(msg)
	case linkOpenedMsg:
		return m.linkOpened(msg)
	case ParentOpenedMsg:
		return m.parentOpened(msg)
	case exportDoneMsg:
		if msg.err != nil {
			return m.setFlash("export failed: " + sanitize.Line(msg.err.Error()))
		}
		return m.setFlash("exported to " + sanitize.Line(msg.path))
	case clipboardDoneMsg:
		return m.clipboardDone(msg)
	case pagerFileMsg:
		return m.openPager(msg)
	case editorFileMsg:
		return m.openEditor(msg)
	case editorDoneMsg:
		return m.editorDone(msg)
	case pagerDoneMsg:
		cmd := removeFileCmd(msg.path)
		if msg.err != nil {
			flash := m.setFlash("pager: " + sanitize.Line(msg.err.Error()))
			return tea.Batch(cmd, flash)
		}
		return cmd
	case flashExpiredMsg:
		if msg.id == m.flashID {
			m.Flash = ""
		}
		return nil
	}
	return nil
}

// ingest appends a batch to the log, follows the newest event when live,
// and re-arms the feed command.
func (m *Conversation) ingest(b model.Batch) tea.Cmd {
	if len(b.Events) > 0 {
		m.Log.Append(b.Events...)
	}
	narrowed := m.narrowNew()
	liveBefore := m.wasLive
	var countdown tea.Cmd
	if b.Conn != nil {
		c := *b.Conn
		m.conn = &c
		m.wasLive = m.wasLive || c.Phase == model.PhaseLive
		countdown = m.startRetryCountdown(c)
	}
	if b.Progress != nil {
		p := *b.Progress
		m.progress = &p
	}
	if b.Runtime != nil {
		m.runtime = *b.Runtime
	}
	if len(b.Warnings) > 0 {
		m.addWarnings(b.Warnings)
	}
	n := m.Log.Len()
	switch {
	case m.follow && n > 0:
		m.cursor = n - 1
	case m.cursor < 0 && n > 0:
		m.cursor = 0
	}
	m.seekStart()
	if !m.follow && m.pinnedLen == 0 {
		m.pinnedLen = n
	}
	withdrawn := tea.Batch(m.withdrawStale(), m.withdrawAnswer())
	notify := m.noticeStatus(liveBefore)
	m.fixTop() // after the banners, which take lines from the list
	search := m.searchNew()
	guards := m.guardNew()
	m.fixTop() // a guard's banner takes a line too
	return tea.Batch(m.waitFeed(), search, narrowed, withdrawn, notify, countdown, guards)
}

// waitFeed is the one point where events enter the UI: it waits for the
// next batch on the feed and hands it to Update as a batchMsg.
func (m *Conversation) waitFeed() tea.Cmd {
	feed, to := m.Opts.Feed, m.Addr()
	if feed == nil || m.feedDone {
		return nil
	}
	return func() tea.Msg {
		b, ok := <-feed
		if !ok {
			return feedClosedMsg{Addr: to}
		}
		return BatchMsg{Addr: to, Batch: b}
	}
}

// setFlash shows a transient message in the footer.
func (m *Conversation) setFlash(s string) tea.Cmd {
	m.flashID++
	m.Flash = s
	id, to := m.flashID, m.Addr()
	return tea.Tick(flashDuration, func(time.Time) tea.Msg { return flashExpiredMsg{Addr: to, id: id} })
}

// state returns the derived state as of the cursor. It is cached by cursor
// and log version, so a frame costs one At (O(K)) at most.
func (m *Conversation) state() reducer.State {
	return m.cache.stateAt(m.Log, m.cursor)
}

// View implements Screen: the screen, exactly as large as SetSize said.
func (m *Conversation) View() string { return m.render() }
