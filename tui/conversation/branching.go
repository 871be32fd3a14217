package conversation

import (
	"context"
	"errors"
)

// Branching forks and moves HEAD of the conversation a view shows, and
// opens another conversation of the same source live. main supplies it for
// a live agent-server (the TUI imports no client); it is nil for a
// recording, where b and N are refused.
type Branching interface {
	// Fork makes a new conversation from the branch that ends at event
	// fromEventID, titled title ("" for the server's default), and sets it
	// going: message ("" for none) is sent as its first message, otherwise
	// it runs on from the fork point. It returns the fork's id; an id with
	// an error means the fork exists but something after its creation
	// failed. A server without fork gives an error wrapping
	// ErrTreeUnsupported.
	Fork(ctx context.Context, fromEventID, title, message string) (id string, err error)
	// Navigate moves the conversation's HEAD to event eventID: what the
	// agent does next hangs from there. A server without navigate gives an
	// error wrapping ErrTreeUnsupported.
	Navigate(ctx context.Context, eventID string) error
	// Open returns what a live view of conversation id (on the same
	// source) needs from main: its title, source, log, feed and controls.
	// The view takes the display settings (theme, colours, keys) from the
	// view that opened it. ok is false when another screen shows it (a
	// fleet table lists the fork under its parent by itself). It runs in
	// a command, off the UI (it may ask the server for the title); ctx
	// lives as long as the view, and ending it ends the view's feed.
	Open(ctx context.Context, id string) (opts Options, ok bool)
}

// ErrTreeUnsupported marks a fork or navigate the source cannot do: an
// agent-server older than SDK 1.31. Its message says so; once seen, the
// view refuses b and N with it without asking the server again.
var ErrTreeUnsupported = errors.New("fork and navigate are not supported by this agent-server")
