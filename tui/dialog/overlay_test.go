package dialog_test

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/tui/dialog"
)

// counter is a dialog that counts what it is given: j counts, x passes,
// esc closes, and a note message is taken only when it is addressed to it.
type counter struct {
	id    string
	keys  int
	notes int
	place dialog.Place
}

type note struct{ to string }

func (c *counter) ID() string { return c.id }
func (c *counter) Update(msg tea.Msg) dialog.Action {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch msg.String() {
		case "j":
			c.keys++
			return dialog.Run(nil)
		case "esc":
			return dialog.Close(func() tea.Msg { return note{to: "closed"} })
		}
		return dialog.Pass()
	case note:
		if msg.to != c.id {
			return dialog.Pass()
		}
		c.notes++
		return dialog.Run(nil)
	}
	return dialog.Pass()
}
func (c *counter) SetSize(int, int)         {}
func (c *counter) View() string             { return c.id }
func (c *counter) ShortHelp() []key.Binding { return nil }
func (c *counter) Place() dialog.Place      { return c.place }

func press(s string) tea.KeyPressMsg {
	if s == "esc" {
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	}
	return tea.KeyPressMsg{Code: rune(s[0]), Text: s}
}

func TestKeysGoToTheTopAlone(t *testing.T) {
	var o dialog.Overlay
	under, top := &counter{id: "under"}, &counter{id: "top"}
	o.Open(under)
	o.Open(top)
	if _, took := o.Update(press("j")); !took {
		t.Fatal("the top dialog did not take j")
	}
	if top.keys != 1 || under.keys != 0 {
		t.Fatalf("keys: top %d, under %d; want 1, 0", top.keys, under.keys)
	}
	if _, took := o.Update(press("x")); took {
		t.Fatal("a passed key was taken: the screen would never see it")
	}
	if under.keys != 0 {
		t.Fatal("a key the top passed reached the dialog under it")
	}
}

func TestCloseRunsTheDialogsLastCommand(t *testing.T) {
	var o dialog.Overlay
	o.Open(&counter{id: "a"})
	o.Open(&counter{id: "b"})
	cmd, took := o.Update(press("esc"))
	if !took || cmd == nil {
		t.Fatalf("esc: took %v, cmd %v; want the close and its command", took, cmd)
	}
	if o.IsOpen("b") || !o.IsOpen("a") || o.Top().ID() != "a" {
		t.Fatalf("after esc: top %v; want a alone", o.Top())
	}
	if _, ok := cmd().(note); !ok {
		t.Fatal("the closing command is not the dialog's")
	}
}

func TestResultsReachADialogUnderAnother(t *testing.T) {
	var o dialog.Overlay
	under, top := &counter{id: "under"}, &counter{id: "top"}
	o.Open(under)
	o.Open(top)
	if _, took := o.Update(note{to: "under"}); !took || under.notes != 1 || top.notes != 0 {
		t.Fatalf("note to under: took %v, under %d, top %d", took, under.notes, top.notes)
	}
	if _, took := o.Update(note{to: "nobody"}); took {
		t.Fatal("a message no dialog wanted was taken")
	}
}

func TestReopeningReplacesInPlace(t *testing.T) {
	var o dialog.Overlay
	o.Open(&counter{id: "a"})
	o.Open(&counter{id: "b"})
	again := &counter{id: "a"}
	o.Open(again)
	if o.Len() != 2 || o.Top().ID() != "b" || o.Find("a") != again {
		t.Fatalf("reopen: %d open, top %s; want 2, b, and the new a", o.Len(), o.Top().ID())
	}
}

func TestPlacesAndTypes(t *testing.T) {
	var o dialog.Overlay
	if o.Top() != nil || o.TopAt(dialog.Main) != nil {
		t.Fatal("an empty overlay has a top")
	}
	main, prompt := &counter{id: "main"}, &counter{id: "prompt", place: dialog.Footer}
	o.Open(main)
	o.Open(prompt)
	if o.TopAt(dialog.Main) != main || o.TopAt(dialog.Footer) != prompt || o.TopAt(dialog.Body) != nil {
		t.Fatal("TopAt does not find each place's dialog")
	}
	if d, ok := dialog.As[*counter](&o); !ok || d != prompt {
		t.Fatal("As does not give the uppermost dialog of its type")
	}
	if o.Close("nothing") {
		t.Fatal("closing what is not open reported a close")
	}
}
