package tui

import tea "charm.land/bubbletea/v2"

// fleetConversation is a conversation opened from the fleet table: the
// full monitor, every feature of it (esc and q lead back to the table once
// nothing is left to close), which also tells the table the person looks
// at it.
type fleetConversation struct {
	*Conversation
	// seen marks the conversation seen in the table: a key pressed here
	// means the person is looking at it (keys reach the top screen
	// alone), so a finish they watched does not ask for them back there.
	seen func()
}

// Update implements Screen.
func (c *fleetConversation) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(tea.KeyPressMsg); ok && c.seen != nil {
		c.seen()
	}
	return c.Conversation.Update(msg)
}
