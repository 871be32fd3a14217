package tui

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// stub is the least screen: it embeds Base and records what reaches it.
type stub struct {
	Base
	got []tea.Msg
}

func newStub() *stub { return &stub{Base: NewBase()} }

func (s *stub) Init() tea.Cmd              { return nil }
func (s *stub) Update(msg tea.Msg) tea.Cmd { s.got = append(s.got, msg); return nil }
func (s *stub) View() string               { return "" }
func (s *stub) SetSize(int, int)           {}
func (s *stub) ShortHelp() []key.Binding   { return nil }
func (s *stub) FullHelp() [][]key.Binding  { return nil }
func (s *stub) gotOne(want tea.Msg) bool   { return len(s.got) == 1 && s.got[0] == want }
func (s *stub) received() int              { return len(s.got) }

// note is a message addressed to one screen.
type note struct {
	Addr
	text string
}

// TestBaseMakesAScreenAddressableAndRooted: a screen of another package
// that embeds Base gets its results delivered while it is hidden, and
// is told whether it is the root, with no method of its own.
func TestBaseMakesAScreenAddressableAndRooted(t *testing.T) {
	root, top := newStub(), newStub()
	if root.ScreenID() == top.ScreenID() || root.ScreenID() == nil {
		t.Fatal("two bases share an id")
	}
	m := NewModel(root)
	if !root.AtRoot() {
		t.Error("the root is not told it is the root")
	}
	m.Update(PushMsg{Screen: top})
	if top.AtRoot() {
		t.Error("a pushed screen is told it is the root")
	}
	msg := note{Addr: root.Addr(), text: "for the hidden root"}
	m.Update(msg)
	if !root.gotOne(msg) || top.received() != 0 {
		t.Errorf("an addressed message reached root %v, top %v", root.got, top.got)
	}
}
