package conversation

import (
	"bytes"
	"context"
	"os/exec"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/tui"
)

// The copy key writes the event's JSON with OSC 52 (which works over SSH
// and tmux when the terminal allows it) and also to the machine's own
// clipboard when a clipboard tool is installed, as crush does: the first
// of wl-copy, xclip, xsel and pbcopy that is found and succeeds. The tool
// runs in a command, never in Update, and the footer says what was used.

// clipboardTool is a command that copies its standard input.
type clipboardTool struct {
	name string
	args []string
}

// clipboardTools are tried in order.
var clipboardTools = []clipboardTool{
	{"wl-copy", nil},
	{"xclip", []string{"-selection", "clipboard"}},
	{"xsel", []string{"-b", "-i"}},
	{"pbcopy", nil},
}

// clipboardTimeout bounds one tool's run (a tool waiting on a display
// that is not there).
const clipboardTimeout = 3 * time.Second

// clipboardDoneMsg reports which native clipboard took the copy ("" when
// none did).
type clipboardDoneMsg struct {
	tui.Addr
	index int // the event copied
	// what was copied: "" for the event's JSON, else "command",
	// "output", "diff", … (lookedat.go).
	what  string
	bytes int
	tool  string
}

// nativeCopy returns the command that copies data with the first
// clipboard tool that works.
// to is the view the result goes to.
func nativeCopy(to tui.Addr, data []byte, index int) tea.Cmd {
	return func() tea.Msg {
		done := clipboardDoneMsg{Addr: to, index: index, bytes: len(data)}
		for _, t := range clipboardTools {
			path, err := exec.LookPath(t.name)
			if err != nil {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), clipboardTimeout)
			cmd := exec.CommandContext(ctx, path, t.args...)
			cmd.Stdin = bytes.NewReader(data)
			err = cmd.Run()
			cancel()
			if err == nil {
				done.tool = t.name
				break
			}
		}
		return done
	}
}

// clipboardDone says where the copy went.
func (m *Conversation) clipboardDone(msg clipboardDoneMsg) tea.Cmd {
	where := "OSC 52 and " + msg.tool
	if msg.tool == "" {
		where = "OSC 52 only (no native clipboard: wl-copy, xclip, xsel, pbcopy)"
	}
	what := msg.what
	if what == "" {
		what = "JSON"
	}
	return m.setFlash("copied " + tui.Ordinal(msg.index) + " " + what + " (" + Itoa(msg.bytes) + " bytes) via " + where)
}
