// Package teacmds runs Bubble Tea commands for tests that drive a model's
// Update themselves, as the program would.
package teacmds

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Run runs a command, and each command of a batch, in its own goroutine
// as Bubble Tea does, sending what they return to msgs. Commands that ask
// the terminal something (the background colour) answer nothing here.
func Run(cmd tea.Cmd, msgs chan<- tea.Msg) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				Run(c, msgs)
			}
			return
		}
		if msg == nil {
			return
		}
		select {
		case msgs <- msg:
		case <-time.After(time.Second):
			// Nobody reads any more: the first screen is already drawn.
		}
	}()
}
