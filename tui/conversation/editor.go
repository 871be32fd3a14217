package conversation

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/tui"
)

// The edit key opens the file an event changed in the person's editor, at
// the line the change begins, when the agent's workspace path exists on
// this machine (a local agent, or a workspace mounted at the same path);
// otherwise the footer says the file is not here. Finding the file reads
// the disk, so it runs in a command; the editor runs with the TUI
// suspended (tea.ExecProcess), as the pager does.

// maxEditScan bounds how much of the file is read to find the line.
const maxEditScan = 8 << 20

// editorFileMsg says where the changed file is and at which line the
// change begins (err: not on this machine).
type editorFileMsg struct {
	tui.Addr
	path string
	line int
	err  error
}

// editorDoneMsg is sent when the editor exited.
type editorDoneMsg struct {
	tui.Addr
	err error
}

// errNoChangedFile is the edit key on an event that changed no file.
var errNoChangedFile = errors.New("this event changed no file")

// editChangedFile finds the file the event changed, in a command.
func (m *Conversation) editChangedFile() tea.Cmd {
	i := m.eventForAction()
	if i < 0 {
		return nil
	}
	detail, err := m.Log.Event(i).Detail()
	change, ok := model.FileEditOf(detail)
	if err != nil || !ok || change.Path == "" {
		return m.setFlash("edit: " + errNoChangedFile.Error())
	}
	to, open := m.Addr(), m.Opts.OpenFile
	if open == nil {
		return m.setFlash("edit: this view cannot check the file; not opened")
	}
	return func() tea.Msg { return locateChange(to, change, open) }
}

// locateChange checks the file is a regular file here (open refuses
// anything else without blocking) and finds the line where the change's
// new text begins (1 when it is not found: the file moved on).
func locateChange(to tui.Addr, c model.FileChange, open func(string) (*os.File, error)) editorFileMsg {
	f, err := open(c.Path)
	if err != nil {
		return editorFileMsg{Addr: to, path: c.Path, err: err}
	}
	defer f.Close()
	buf := make([]byte, maxEditScan)
	n, _ := readFull(f, buf)
	line := 1
	if c.New != "" {
		if at := strings.Index(string(buf[:n]), c.New); at >= 0 {
			line += strings.Count(string(buf[:at]), "\n")
		}
	}
	return editorFileMsg{Addr: to, path: c.Path, line: line}
}

func readFull(f *os.File, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := f.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// openEditor runs the editor on the file at its line, or says why not.
func (m *Conversation) openEditor(msg editorFileMsg) tea.Cmd {
	switch {
	case errors.Is(msg.err, fs.ErrNotExist):
		return m.setFlash("edit: " + sanitize.Line(msg.path) + " is not on this machine (the agent's workspace): not opened")
	case msg.err != nil:
		return m.setFlash("edit: " + sanitize.Line(msg.path) + ": " + SanitizeErr(msg.err) + "; not opened")
	}
	args := editorCommand(m.Opts.Editor, msg.path, msg.line)
	to := m.Addr()
	return tea.ExecProcess(exec.Command(args[0], args[1:]...), func(err error) tea.Msg { return editorDoneMsg{Addr: to, err: err} })
}

// editorDone says when the editor failed.
func (m *Conversation) editorDone(msg editorDoneMsg) tea.Cmd {
	if msg.err != nil {
		return m.setFlash("editor: " + SanitizeErr(msg.err))
	}
	return nil
}
