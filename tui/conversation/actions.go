package conversation

import (
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"ohwatch/tui"
)

// copyEvent copies the cursor event's JSON to the clipboard with OSC 52,
// which works over SSH and tmux, and with a native clipboard tool
// (clipboard.go). The OSC 52 payload is base64-encoded by the sequence,
// so the event's bytes cannot drive the terminal.
func (m *Conversation) copyEvent() tea.Cmd {
	i := m.eventForAction()
	if i < 0 {
		return nil
	}
	raw := m.Log.Event(i).Raw
	flash := m.setFlash("copied " + tui.Ordinal(i) + " JSON (" + Itoa(len(raw)) + " bytes) via OSC 52")
	return tea.Batch(tea.SetClipboard(string(raw)), nativeCopy(m.Addr(), raw, i), flash)
}

// eventForAction is the event y, o and the inspector act on: the
// inspected one while the inspector is open, else the cursor's.
func (m *Conversation) eventForAction() int {
	if in, open := m.insp(); open {
		return in.index
	}
	return m.cursor
}

// openPager suspends the TUI and runs the pager on the written file.
func (m *Conversation) openPager(msg pagerFileMsg) tea.Cmd {
	if msg.err != nil {
		return m.setFlash("pager: " + SanitizeErr(msg.err))
	}
	args := strings.Fields(m.Opts.Pager)
	if len(args) == 0 {
		args = []string{"less"}
	}
	cmd := exec.Command(args[0], append(args[1:], msg.path)...)
	path, to := msg.path, m.Addr()
	return tea.ExecProcess(cmd, func(err error) tea.Msg { return pagerDoneMsg{Addr: to, path: path, err: err} })
}

// removeFileCmd deletes the pager's temporary file.
func removeFileCmd(path string) tea.Cmd {
	if path == "" {
		return nil
	}
	return func() tea.Msg {
		_ = os.Remove(path)
		return nil
	}
}

// startExport runs Options.Export in a command; path "" is its default.
func (m *Conversation) startExport(format, path string) tea.Cmd {
	export := m.Opts.Export
	if export == nil {
		return m.setFlash("export is not available here")
	}
	flash, to := m.setFlash("exporting "+format+"…"), m.Addr()
	return tea.Batch(flash, func() tea.Msg {
		written, err := export(format, path)
		return exportDoneMsg{Addr: to, path: written, err: err}
	})
}

// askExportPath opens the prompt for where the export goes, filled with
// the default path (Options.ExportPath) for the user to keep or edit.
func (m *Conversation) askExportPath(format string) tea.Cmd {
	if m.Opts.ExportPath == nil {
		return m.startExport(format, "")
	}
	in := NewTextInput()
	in.CharLimit = maxPathRunes
	in.SetValue(m.Opts.ExportPath(format))
	in.CursorEnd()
	m.openPrompt(Prompt{Kind: promptExportPath, in: in, format: format})
	return nil
}

// maxPathRunes bounds a typed export path.
const maxPathRunes = 1024
