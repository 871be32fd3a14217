package conversation

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/tui"
	"ohwatch/tui/compareview"
)

// A fork's view compares it with the conversation it was forked from (D):
// the parent is opened as the source opens any linked conversation, and
// the compare screen shows the parent (A), along the branch the fork was
// made from, against this view's own log (B), which this view keeps
// feeding underneath. The screen opens on the first difference, just
// after the fork point.

// Parented is Links that also knows the conversation this one came from:
// the source's listing names every conversation's parent. Parent reads
// what the last refresh read (it is called from Update): ok is false for
// a conversation that is no fork, or one the listing does not know yet.
type Parented interface {
	Parent() (parent Link, ok bool)
}

// ParentOpenedMsg is sent when the parent to compare with was opened.
type ParentOpenedMsg struct {
	tui.Addr
	parent Link
	opts   Options
	end    context.CancelFunc
	err    error
}

// askCompareParent answers D: it opens the parent in a command.
func (m *Conversation) askCompareParent() tea.Cmd {
	p, ok := m.Opts.Links.(Parented)
	if !ok {
		return m.setFlash("this source does not say where a conversation was forked from")
	}
	parent, ok := p.Parent()
	if !ok || parent.ID == "" {
		return m.setFlash("not a fork: this conversation was forked from no other that the source lists")
	}
	links, to := m.Opts.Links, m.Addr()
	ctx, end := context.WithCancel(context.Background())
	flash := m.setFlash("opening " + parentLabel(parent) + " to compare…")
	return tea.Batch(flash, func() tea.Msg {
		opts, err := links.Open(ctx, parent.ID)
		return ParentOpenedMsg{Addr: to, parent: parent, opts: opts, end: end, err: err}
	})
}

// parentLabel names the parent on one line.
func parentLabel(l Link) string {
	label := "parent " + compareview.ShortID(l.ID)
	if l.Title != "" {
		label += " " + sanitize.Line(l.Title)
	}
	return label
}

// parentOpened pushes the comparison of the parent with this view.
func (m *Conversation) parentOpened(msg ParentOpenedMsg) tea.Cmd {
	if msg.err != nil {
		msg.end()
		return m.setFlash("could not open " + parentLabel(msg.parent) + ": " + SanitizeErr(msg.err))
	}
	p := msg.opts
	opts := compareview.CompareOptions{
		A: compareview.CompareSide{Title: p.Title, Source: p.Source, Log: p.Log, Feed: p.Feed, Live: p.Live, Through: msg.parent.Event, Ended: !p.Live},
		// This view feeds its own log, even under the compare screen.
		B:   compareview.CompareSide{Title: m.Opts.Title, Source: m.Opts.Source, Log: m.Log, Live: m.Opts.Live || !m.feedDone, Ended: !m.Opts.Live},
		End: msg.end,
	}
	opts.SetCommon(m.Common)
	screen := compareview.NewCompare(opts)
	return tui.Push(screen)
}
