package conversation

import (
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"ohwatch/tui"
)

// The pager key (o) pages what the inspector shows of the event, as a
// person reads it: the rendered view (the command and its output, the
// diff, the message as rendered markdown), the state diff in the diff
// mode, and the event's indented JSON only in the raw mode. The text is
// plain, with no escape sequence, so any pager shows it as it is (less
// without -R included), and it is wrapped to the inspector's width, so
// the pager shows the same lines the inspector does.

// pageJob is what paging an event needs, taken in Update: the build of
// the inspector's view, the mode and the width to lay it out at.
type pageJob struct {
	build inspectJob
	mode  inspectMode
	width int
}

// pagerJob prepares paging event i in the inspector's mode (the rendered
// view when the inspector is closed).
func (m *Conversation) pagerJob(i int) pageJob {
	mode := modeRendered
	if in, open := m.insp(); open {
		mode = in.mode
	}
	return pageJob{build: m.inspectJobFor(i), mode: mode, width: m.layout().list.w}
}

// text is the plain text the pager shows, one line per inspector line;
// the file name's suffix says what it is (".json" for raw JSON).
func (p pageJob) text() (string, string) {
	raw := p.build.ev.Raw
	if p.mode == modeRaw {
		return string(tui.PrettyJSON(raw)), ".json"
	}
	p.build.md.width = p.width
	d := p.build.run().(inspectedMsg).data
	in := inspector{index: p.build.index, mode: p.mode, data: d}
	lines, _ := in.lines(p.build.styles, p.build.md.cells, raw, max(p.width, 20))
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimRight(ansi.Strip(l), " "))
		b.WriteByte('\n')
	}
	return b.String(), ".txt"
}

// writePagerFile writes what the pager shows of the event to a temporary
// file (rendering and I/O, so in a command); the pager opens it when the
// file is ready.
func (m *Conversation) writePagerFile() tea.Cmd {
	i := m.eventForAction()
	if i < 0 {
		return nil
	}
	job, to := m.pagerJob(i), m.Addr()
	return func() tea.Msg {
		text, suffix := job.text()
		f, err := os.CreateTemp("", "ohwatch-event-*"+suffix)
		if err != nil {
			return pagerFileMsg{Addr: to, err: err}
		}
		_, werr := f.WriteString(text)
		cerr := f.Close()
		if werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(f.Name())
			return pagerFileMsg{Addr: to, err: werr}
		}
		return pagerFileMsg{Addr: to, path: f.Name()}
	}
}
