package tui

import "github.com/charmbracelet/x/ansi"

// NotifySequence is the bell and a desktop notification as OSC 9 (iTerm2,
// WezTerm, kitty, Windows Terminal) and OSC 777 (rxvt, foot, Ghostty,
// VTE). Inside tmux each OSC is wrapped for its passthrough (tmux needs
// allow-passthrough on), or tmux swallows it and nothing reaches the
// terminal; tmux handles the bell itself. head and body are already
// cleaned (notifyText).
func NotifySequence(head, body string, tmux bool) string {
	osc9 := ansi.Notify(head + " - " + body)
	osc777 := "\x1b]777;notify;" + head + ";" + body + "\x07"
	if tmux {
		osc9, osc777 = ansi.TmuxPassthrough(osc9), ansi.TmuxPassthrough(osc777)
	}
	return "\a" + osc9 + osc777
}
