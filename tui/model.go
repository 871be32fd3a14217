package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/theme"
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

// Model is the root Bubble Tea model. It holds view state only: the
// conversation itself lives in the shared Log and the reducer derives every
// value a pane shows from it, as of the cursor.
type Model struct {
	opts   Options
	keys   KeyMap
	log    *reducer.Log
	styles theme.Styles
	colour colours
	width  int
	height int

	// cursor is the selected event's index in the log; -1 while it is empty.
	cursor int
	// follow keeps the cursor on the newest event while a live source
	// records; moving the cursor pins it.
	follow bool
	// pinnedLen is the log length when the cursor was pinned: the header
	// counts the events recorded since.
	pinnedLen int
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
	progress    *model.Progress
	warnings    int
	lastWarning string

	focus  pane
	scroll [paneCount]int
	filter kindFilter
	// timeMode is how the list prints each event's time (t cycles it).
	timeMode timeMode

	picker   kindPicker
	insp     inspector
	showHelp bool
	helpAt   int // the help's scroll offset
	input    prompt
	search   searchState
	// searchHist is the searches kept with enter, the latest last.
	searchHist []string
	play       playState
	bookmarks  []int
	flash      string
	flashID    int

	// cache holds render caches shared by the copies of the model.
	cache *renderCache
}

// New builds the root model. The log must not be nil.
func New(opts Options) Model {
	keys := opts.KeyMap
	if len(keys.Quit.Keys()) == 0 {
		keys = DefaultKeyMap()
	}
	if opts.Log == nil {
		opts.Log = reducer.NewLog(nil, 0)
	}
	m := Model{
		opts:   opts,
		keys:   keys,
		log:    opts.Log,
		colour: newColours(opts.Theme, opts.Profile, opts.NoColor),
		width:  80,
		height: 24,
		cursor: -1,
		filter: defaultFilter(),
		play:   playState{speed: 1},
		cache:  newRenderCache(),
	}
	m.styles = m.colour.styles()
	if n := m.log.Len(); n > 0 {
		m.cursor = 0
		if opts.Live {
			m.cursor = n - 1
		}
	}
	m.follow = opts.Live
	m.pinnedLen = m.log.Len()
	m.fixTop()
	return m
}

// Init starts waiting on the feed and asks the terminal for its background
// colour (the answer picks the light or dark palette under --theme auto).
func (m Model) Init() tea.Cmd {
	return tea.Batch(m.waitFeed(), m.colour.init())
}

// Update implements tea.Model.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.fixTop()
		return m.refreshMarkdown(), nil
	case tea.ModeReportMsg:
		if unicodeCoreReport(msg) && cellMethod() != ansi.GraphemeWidth {
			// The renderer now measures clusters: so must the layout.
			setCellMethod(ansi.GraphemeWidth)
			m.cache.clearRows()
		}
		return m, nil
	case tea.BackgroundColorMsg, tea.ColorProfileMsg:
		if m.colour.update(msg) {
			m.styles = m.colour.styles()
			m.cache.clearRows()
		}
		return m.refreshMarkdown(), nil
	case batchMsg:
		return m.ingest(msg.batch)
	case feedClosedMsg:
		m.feedDone = true
		if !m.opts.Live {
			// A loaded recording has no newest event to follow.
			m.follow = false
		}
		return m, nil
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.PasteMsg:
		return m.promptPaste(msg)
	case tea.MouseWheelMsg:
		return m.handleWheel(msg)
	case tea.MouseClickMsg:
		return m.handleClick(msg)
	case searchProgressMsg:
		return m.searchProgress(msg)
	case playTickMsg:
		return m.playTick(msg)
	case retryTickMsg:
		return m.retryTicked(msg)
	case respondDoneMsg:
		return m.respondDone(msg)
	case exportDoneMsg:
		if msg.err != nil {
			return m.setFlash("export failed: " + model.SanitizeLine(msg.err.Error()))
		}
		return m.setFlash("exported to " + model.SanitizeLine(msg.path))
	case clipboardDoneMsg:
		return m.clipboardDone(msg)
	case pagerFileMsg:
		return m.openPager(msg)
	case pagerDoneMsg:
		cmd := removeFileCmd(msg.path)
		if msg.err != nil {
			m, flash := m.setFlash("pager: " + model.SanitizeLine(msg.err.Error()))
			return m, tea.Batch(cmd, flash)
		}
		return m, cmd
	case flashExpiredMsg:
		if msg.id == m.flashID {
			m.flash = ""
		}
		return m, nil
	}
	return m, nil
}

// ingest appends a batch to the log, follows the newest event when live,
// and re-arms the feed command.
func (m Model) ingest(b model.Batch) (tea.Model, tea.Cmd) {
	if len(b.Events) > 0 {
		m.log.Append(b.Events...)
	}
	liveBefore := m.wasLive
	var countdown tea.Cmd
	if b.Conn != nil {
		c := *b.Conn
		m.conn = &c
		m.wasLive = m.wasLive || c.Phase == model.PhaseLive
		m, countdown = m.startRetryCountdown(c)
	}
	if b.Progress != nil {
		p := *b.Progress
		m.progress = &p
	}
	if len(b.Warnings) > 0 {
		m.warnings += len(b.Warnings)
		m.lastWarning = model.SanitizeLine(b.Warnings[len(b.Warnings)-1])
	}
	n := m.log.Len()
	switch {
	case m.follow && n > 0:
		m.cursor = n - 1
	case m.cursor < 0 && n > 0:
		m.cursor = 0
	}
	if !m.follow && m.pinnedLen == 0 {
		m.pinnedLen = n
	}
	m, withdrawn := m.withdrawStale()
	m, notify := m.noticeStatus(liveBefore)
	m.fixTop() // after the banners, which take lines from the list
	m, search := m.searchNew()
	return m, tea.Batch(m.waitFeed(), search, withdrawn, notify, countdown)
}

// waitFeed is the one point where events enter the UI: it waits for the
// next batch on the feed and hands it to Update as a batchMsg.
func (m Model) waitFeed() tea.Cmd {
	feed := m.opts.Feed
	if feed == nil || m.feedDone {
		return nil
	}
	return func() tea.Msg {
		b, ok := <-feed
		if !ok {
			return feedClosedMsg{}
		}
		return batchMsg{batch: b}
	}
}

// setFlash shows a transient message in the footer.
func (m Model) setFlash(s string) (Model, tea.Cmd) {
	m.flashID++
	m.flash = s
	id := m.flashID
	return m, tea.Tick(flashDuration, func(time.Time) tea.Msg { return flashExpiredMsg{id: id} })
}

// state returns the derived state as of the cursor. It is cached by cursor
// and log version, so a frame costs one At (O(K)) at most.
func (m Model) state() reducer.State {
	return m.cache.stateAt(m.log, m.cursor)
}

// View implements tea.Model.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "ohwatch"
	return v
}
