package tui

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"ohwatch/tui/text"
)

// Screen is one screen of the program: the root Model shows the screen on
// top of its back-stack and hands it the keys. A screen is a pointer that
// Update changes in place. Screens say where to go with the commands Push,
// Pop and Back; every screen is told the window's size and the terminal's
// colour reports, and every message addressed to it (addr), whether it is
// on top or not.
type Screen interface {
	// Init is called once, when the screen first enters the stack.
	Init() tea.Cmd
	// Update answers a message.
	Update(msg tea.Msg) tea.Cmd
	// View draws the screen, exactly as large as SetSize said.
	View() string
	// SetSize gives the screen the terminal's size.
	SetSize(width, height int)
	// KeyMap is the screen's keys for a help bar (ShortHelp) and a help
	// screen (FullHelp), as bubbles/help draws them.
	help.KeyMap
}

// Push returns a command that puts s on top of the back-stack. A screen
// pushed for the first time is sized and initialised; a conversation view
// pushed again (a fleet opening it once more) is shown as it was.
func Push(s Screen) tea.Cmd { return func() tea.Msg { return PushMsg{Screen: s} } }

// Pop returns a command that goes back one screen; at the root it quits
// the program (what q does).
func Pop() tea.Cmd { return func() tea.Msg { return PopMsg{QuitAtRoot: true} } }

// Back returns a command that goes back one screen; at the root it does
// nothing (what esc does).
func Back() tea.Cmd { return func() tea.Msg { return PopMsg{} } }

// pushMsg and popMsg carry Push, Pop and Back to the router.
type (
	PushMsg struct{ Screen Screen }
	PopMsg  struct{ QuitAtRoot bool }
)

// Addr addresses a message to one screen: the commands of a conversation
// view (its feed, its search, its ticks, its clipboard, pager and export
// results) embed it, so each result reaches the view that asked for it
// even when another screen is on top. The zero addr means the top screen.
type Addr struct{ To ScreenID }

func (a Addr) Addressee() ScreenID { return a.To }

// ScreenID names an addressable screen: a pointer of its own, distinct
// from every other screen's without a counter shared by the process.
type ScreenID = *screenTag

// screenTag is what a screenID points to; it has a size, so that no two
// are the same pointer.
type screenTag struct{ _ byte }

// Addressed is a message that names the screen it is for.
type Addressed interface{ Addressee() ScreenID }

// Rooted is a screen that words its keys by whether it is the root, where
// q quits, or above another screen, where q goes back.
type Rooted interface{ SetAtRoot(root bool) }

// Addressable is a screen that messages can be addressed to.
type Addressable interface{ ScreenID() ScreenID }

// Resizable is a screen with work to redo, off the UI, at a new size (a
// conversation's inspector renders its markdown for the new width).
type Resizable interface{ Resized() tea.Cmd }

// Releasable is a screen that lets go of what it holds once it is popped:
// a conversation opened from the fleet table drops its log, feed and
// caches (the table's row keeps what it derived), and opening it again
// loads its events again. The router forgets it, so nothing keeps it
// alive.
type Releasable interface{ Release() }

// NewScreenID returns a screen id never handed out before (never nil).
func NewScreenID() ScreenID { return &screenTag{} }

// Model is the root Bubble Tea model: a router over a back-stack of
// screens. It draws the screen on top and gives it the keys; esc and q
// (the screens' Back and Pop) go back one screen, and a Pop at the root
// quits. Addressable screens stay alive once pushed, even when popped (a
// fork's view left for the conversation it came from keeps ingesting its
// feed), except a releasable one, which is released and forgotten when it
// is popped.
type Model struct {
	Stack []Screen
	// Alive is every addressable screen pushed so far, by id.
	Alive         map[ScreenID]Screen
	width, height int
	sized         bool
	// cells is the terminal's width model: wcwidth until it reports mode
	// 2027, then grapheme clusters. Every screen is told it.
	cells text.Cells
}

// NewModel builds a router with root at the bottom of its stack.
func NewModel(root Screen) *Model {
	m := &Model{Alive: map[ScreenID]Screen{}}
	m.Stack = []Screen{root}
	if r, ok := root.(Rooted); ok {
		r.SetAtRoot(true)
	}
	m.register(root)
	return m
}

// register keeps an addressable screen reachable; it reports whether the
// Screen is new to the router.
func (m *Model) register(s Screen) bool {
	a, ok := s.(Addressable)
	if !ok {
		return true
	}
	if _, seen := m.Alive[a.ScreenID()]; seen {
		return false
	}
	m.Alive[a.ScreenID()] = s
	return true
}

// Top is the screen shown now.
func (m *Model) Top() Screen { return m.Stack[len(m.Stack)-1] }

// Root is the screen at the bottom of the stack.
func (m *Model) Root() Screen { return m.Stack[0] }

// Init initialises the root screen.
func (m *Model) Init() tea.Cmd { return m.Root().Init() }

// Update routes a message: the size and the terminal's reports to every
// screen, an addressed message to its screen, navigation to the stack,
// the rest (keys, mouse, paste) to the top screen.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height, m.sized = msg.Width, msg.Height, true
		var cmds []tea.Cmd
		for _, s := range m.screens() {
			s.SetSize(msg.Width, msg.Height)
			if r, ok := s.(Resizable); ok {
				cmds = append(cmds, r.Resized())
			}
		}
		return m, tea.Batch(cmds...)
	case tea.ColorProfileMsg, tea.BackgroundColorMsg, tea.ModeReportMsg:
		var cmds []tea.Cmd
		if r, ok := msg.(tea.ModeReportMsg); ok && unicodeCoreReport(r) {
			// The renderer now measures clusters: so must every screen.
			m.cells = text.Graphemes()
			cmds = append(cmds, m.measure(m.screens()...))
		}
		for _, s := range m.screens() {
			cmds = append(cmds, s.Update(msg))
		}
		return m, tea.Batch(cmds...)
	case PushMsg:
		return m, m.push(msg.Screen)
	case PopMsg:
		if len(m.Stack) == 1 {
			if msg.QuitAtRoot {
				return m, tea.Quit
			}
			return m, nil
		}
		m.pop()
		return m, nil
	case Addressed:
		if id := msg.Addressee(); id != nil {
			if s, ok := m.Alive[id]; ok {
				return m, s.Update(msg)
			}
			return m, nil // its screen is gone
		}
	}
	return m, m.Top().Update(msg)
}

// push puts s on top, sizing and initialising it when it is new.
func (m *Model) push(s Screen) tea.Cmd {
	m.Stack = append(m.Stack, s)
	if r, ok := s.(Rooted); ok {
		r.SetAtRoot(false)
	}
	if t, ok := s.(Trailed); ok {
		t.SetTrail(m.trail())
	}
	measured := m.measure(s)
	var resized tea.Cmd
	if m.sized {
		s.SetSize(m.width, m.height)
		if r, ok := s.(Resizable); ok {
			resized = r.Resized()
		}
	}
	if m.register(s) {
		return tea.Batch(measured, resized, s.Init())
	}
	return tea.Batch(measured, resized)
}

// measure tells screens the terminal's width model.
func (m *Model) measure(screens ...Screen) tea.Cmd {
	var cmds []tea.Cmd
	for _, s := range screens {
		if ms, ok := s.(Measured); ok {
			cmds = append(cmds, ms.SetCells(m.cells))
		}
	}
	return tea.Batch(cmds...)
}

// Crumbed is a screen that names itself in the breadcrumb of the
// screens pushed over it ("fleet", a conversation's title).
type Crumbed interface{ Crumb() string }

// Trailed is a screen that shows the breadcrumb of the screens under it.
type Trailed interface{ SetTrail(trail []string) }

// trail is the breadcrumb of the screens under the one being pushed (the
// stack without its top).
func (m *Model) trail() []string {
	var out []string
	for _, s := range m.Stack[:len(m.Stack)-1] {
		if c, ok := s.(Crumbed); ok && c.Crumb() != "" {
			out = append(out, c.Crumb())
		}
	}
	return out
}

// pop removes the top screen; a releasable one, shown nowhere else on the
// stack, is released and forgotten.
func (m *Model) pop() {
	top := m.Top()
	m.Stack[len(m.Stack)-1] = nil
	m.Stack = m.Stack[:len(m.Stack)-1]
	r, ok := top.(Releasable)
	if !ok {
		return
	}
	for _, s := range m.Stack {
		if s == top {
			return
		}
	}
	if a, ok := top.(Addressable); ok {
		delete(m.Alive, a.ScreenID())
	}
	r.Release()
}

// screens is every screen the router keeps: the stack and the living
// screens popped from it, each once.
func (m *Model) screens() []Screen {
	out := make([]Screen, 0, len(m.Stack)+len(m.Alive))
	seen := make(map[Screen]bool, cap(out))
	for _, s := range m.Stack {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, s := range m.Alive {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// View draws the top screen on the alternate screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Top().View())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "ohwatch"
	if t, ok := m.Top().(interface{ WindowTitle() string }); ok && t.WindowTitle() != "" {
		v.WindowTitle = t.WindowTitle() + " — ohwatch"
	}
	return v
}

// Unreachable asks the root screen whether the session it watched never
// connected (see Conversation.Unreachable); "" when it did or cannot say.
func (m *Model) Unreachable() string {
	if u, ok := m.Root().(interface{ Unreachable() string }); ok {
		return u.Unreachable()
	}
	return ""
}

// Base is what every screen holds alike: the id the router delivers its
// commands' results by, and whether it is the root of the stack (where q
// quits rather than going back). A screen embeds one made by NewBase and
// so is Addressable and Rooted without saying so itself.
type Base struct {
	id     ScreenID
	atRoot bool
}

// NewBase returns a base with a screen id never handed out before.
func NewBase() Base { return Base{id: NewScreenID()} }

// ScreenID implements Addressable: the id the screen's messages carry.
func (b *Base) ScreenID() ScreenID { return b.id }

// Addr addresses a message to the screen, so the router delivers it there
// even while another screen is on top.
func (b *Base) Addr() Addr { return Addr{To: b.id} }

// SetAtRoot implements Rooted.
func (b *Base) SetAtRoot(root bool) { b.atRoot = root }

// AtRoot reports whether the screen is the bottom of the stack.
func (b *Base) AtRoot() bool { return b.atRoot }
