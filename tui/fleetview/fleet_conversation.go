package fleetview

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"ohwatch/tui/conversation"
)

// fleetConversation is a conversation opened from the fleet table: the
// full monitor, every feature of it (esc and q lead back to the table once
// nothing is left to close), which also tells the table the person looks
// at it. It lives while it is on the stack: going back to the table
// releases it (its session's context is cancelled, which ends its feed,
// and its log, feed and caches are dropped), so a fleet holds the events
// of the conversation open now and no other; the table's row keeps what
// it derived, and opening the conversation again loads its events again.
type fleetConversation struct {
	*conversation.Conversation
	// seen marks the conversation seen in the table: a key pressed here
	// means the person is looking at it (keys reach the top screen
	// alone), so a finish they watched does not ask for them back there.
	seen func()
	// end cancels the context the session was opened with.
	end context.CancelFunc
}

// Update implements Screen.
func (c *fleetConversation) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(tea.KeyPressMsg); ok && c.seen != nil {
		c.seen()
	}
	return c.Conversation.Update(msg)
}

// release implements releasable: the router calls it once the view is
// popped, and never hands the view a message again.
func (c *fleetConversation) Release() {
	if c.end != nil {
		c.end()
	}
	c.Conversation, c.seen = nil, nil
}
