package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// fleetConversation is a conversation opened from the fleet table: the
// full monitor, every feature of it, where esc also leads back to the
// table once it has nothing left to close (the inspector, the help, a
// prompt, a banner, a focused pane each take an esc first), so a person
// going through the fleet can leave with the key that closes everything
// else. q goes back as it does over any screen.
type fleetConversation struct {
	*Conversation
	// seen marks the conversation seen in the table: a key pressed here
	// means the person is looking at it (keys reach the top screen
	// alone), so a finish they watched does not ask for them back there.
	seen func()
}

// Update implements Screen. An esc that changed nothing on the screen
// goes back: whatever it could have closed was already closed.
func (c *fleetConversation) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if ok && c.seen != nil {
		c.seen()
	}
	if !ok || !key.Matches(k, c.keys.Back) {
		return c.Conversation.Update(msg)
	}
	before := c.Conversation.View()
	cmd := c.Conversation.Update(msg)
	if cmd == nil && c.Conversation.View() == before {
		return Back()
	}
	return cmd
}
