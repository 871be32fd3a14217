package conversation

import (
	"context"
	"os"
	"time"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/guard"
	"ohwatch/theme"

	"ohwatch/reducer"

	"ohwatch/model"
	"ohwatch/tui"
)

// Controls answers a conversation that waits for confirmation. It is nil
// when the source is not live (a replay cannot be answered).
type Controls interface {
	// Respond accepts (true) or rejects (false) the pending actions, but
	// only if the conversation still waits on exactly actionIDs (event
	// ids): it checks with the source just before sending, and otherwise
	// sends nothing and returns an error wrapping ErrNotSent that says why.
	Respond(ctx context.Context, accept bool, actionIDs []string) error
}

// Options is everything the TUI needs from its caller. The TUI never opens
// a source itself: main wires a client to Feed and hands over the Log.
type Options struct {
	// Title is the conversation title or id shown in the header.
	Title string
	// Source says where the events come from ("replay ./dir", "ws 127.0.0.1:8000").
	Source string
	// Log is the shared event log; the TUI appends each batch from Feed to
	// it in Update (Append is incremental and cheap).
	Log *reducer.Log
	// Feed delivers batches of events, about one per frame; nil for a
	// static replay. When it closes the source is done.
	Feed <-chan model.Batch
	// Live is true for a live source: the cursor follows the newest event.
	Live bool
	// StartAt is the id of the event a recorded view opens at, once it
	// has been loaded: a fork opened from its parent opens at the fork
	// point, where it parts from what the user was looking at. "" opens
	// at the first event; a live view follows the newest whatever it says.
	StartAt string
	// Server is a live source's address ("http://127.0.0.1:8000"), and
	// Conversation the conversation's id: a connection banner names them.
	Server, Conversation string
	// Controls answers confirmations; nil hides accept and reject.
	Controls Controls
	// Branching forks and navigates a live conversation; nil refuses b and
	// N (a recording).
	Branching Branching
	// Links knows the conversations forked or launched from this one's
	// events and opens them (O); nil opens none.
	Links Links
	// Guards are judged on every event as it arrives; a pause or
	// interrupt guard stops a live run through Controls (when it steers:
	// Steering), and is a dry run on a recording. nil: none.
	Guards *guard.Set
	// Export writes the conversation in a format ("md", "json", "jsonl")
	// to path (a default when empty) and returns the path written; nil
	// hides the export key. ExportPath is the path the prompt offers.
	Export     func(format, path string) (written string, err error)
	ExportPath func(format string) string
	// Notify rings the bell and sends a desktop notification (OSC 9 and
	// OSC 777) when a live status needs the user. main sets it only when
	// stdout is a terminal and --no-notify is not given.
	Notify bool
	// Pager is the command that pages what the inspector shows of an
	// event, as plain text ("less"); empty means "less".
	Pager string
	// Editor is the command that opens a changed file ($VISUAL, else
	// $EDITOR); empty means "vi".
	Editor string
	// OpenFile opens a file the edit key is about to hand the editor, only
	// when it is a regular file (the files reader's check: a FIFO would
	// block the editor for ever, /dev/tty fight the TUI for keys); nil
	// means the view cannot check, and E opens nothing.
	OpenFile func(path string) (*os.File, error)
	// Retry starts a live watch that gave up again, over the same Feed
	// (r, retry.go), and reports whether it did; nil when the source
	// cannot. FirstWait is how long a first connection keeps trying
	// (watch --wait), said on screen; 0 for the few attempts.
	Retry     func() bool
	FirstWait time.Duration
	// Tmux wraps the desktop notifications for tmux's passthrough: the
	// caller sets it when $TMUX is set (notify.go).
	Tmux bool
	// KeyMap overrides the key bindings; the zero value means DefaultKeyMap.
	KeyMap tui.KeyMap
	// NoColor draws without any colour or attribute (NO_COLOR).
	NoColor bool
	// Theme picks the palette: auto (the terminal's answer to the
	// background query, dark until it answers), dark or light.
	Theme theme.Mode
	// Profile is the terminal's colour profile; Unknown lets Run detect
	// it from stdout and the environment.
	Profile colorprofile.Profile
}

// Common is the part of the options a view hands on to the views it
// opens (display, keys, pager and editor).
func (o Options) Common() tui.Common {
	return tui.Common{KeyMap: o.KeyMap, NoColor: o.NoColor, Theme: o.Theme, Profile: o.Profile,
		Pager: o.Pager, Editor: o.Editor, Notify: o.Notify, OpenFile: o.OpenFile}
}

// SetCommon sets the options' Common part: a view opened from another
// one draws and answers as that one does.
func (o *Options) SetCommon(c tui.Common) {
	o.KeyMap, o.NoColor, o.Theme, o.Profile = c.KeyMap, c.NoColor, c.Theme, c.Profile
	o.Pager, o.Editor, o.Notify, o.OpenFile = c.Pager, c.Editor, c.Notify, c.OpenFile
}
