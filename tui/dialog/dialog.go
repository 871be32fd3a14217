package dialog

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Dialog is one overlay. It is a pane too (SetSize, View, ShortHelp), so a
// screen draws it where it would draw a pane.
type Dialog interface {
	// ID names the dialog, so its screen can ask whether it is open and
	// find it again; one of each ID is open at a time.
	ID() string
	// Update handles a message and says what the screen should do next.
	Update(msg tea.Msg) Action
	// SetSize gives the dialog its area before View.
	SetSize(width, height int)
	// View draws the dialog exactly as large as its area.
	View() string
	// ShortHelp names the dialog's keys for the one-line help.
	ShortHelp() []key.Binding
}

// Action is what a dialog asks of its screen after a message.
type Action struct {
	// Cmd runs next; nil runs nothing.
	Cmd tea.Cmd
	// Close takes the dialog off the stack.
	Close bool
	// Pass leaves the message unhandled: the screen answers it as if the
	// dialog were not there (a key the dialog does not use).
	Pass bool
}

// Close is the Action of a dialog that is done, running cmd (nil: none).
func Close(cmd tea.Cmd) Action { return Action{Cmd: cmd, Close: true} }

// Run is the Action of a dialog that stays open and runs cmd.
func Run(cmd tea.Cmd) Action { return Action{Cmd: cmd} }

// Pass is the Action of a dialog that leaves the message to its screen.
func Pass() Action { return Action{Pass: true} }

// Place is where a screen draws a dialog.
type Place int

const (
	// Main is the screen's main area, where its list would be.
	Main Place = iota
	// Footer is the line at the bottom, where a prompt is typed.
	Footer
	// Body is all of the screen between its header and its footer.
	Body
)

// Placed is a dialog that says where it goes; one that does not is drawn
// in the Main area.
type Placed interface {
	Place() Place
}

// PlaceOf is where d goes.
func PlaceOf(d Dialog) Place {
	if p, ok := d.(Placed); ok {
		return p.Place()
	}
	return Main
}
