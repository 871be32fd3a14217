package tui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
)

// Two conversations of the fleet are compared by marking them (m on each;
// a third mark drops the oldest) and pressing c: both are opened as enter
// opens one, and the compare screen shows the first marked (A) against
// the second (B). esc comes back to the table, which ends both feeds.

// fleetCompareMsg is sent when both marked conversations were opened.
type fleetCompareMsg struct {
	Addr
	a, b Options
	end  context.CancelFunc
	err  error
}

// toggleMark marks the selected conversation for comparison, or unmarks
// it.
func (f *Fleet) toggleMark() {
	r, ok := f.current()
	if !ok {
		return
	}
	for k, m := range f.marked {
		if m == r.Ref {
			f.marked = append(f.marked[:k:k], f.marked[k+1:]...)
			f.flash = "unmarked " + model.SanitizeLine(r.Title)
			return
		}
	}
	f.marked = append(f.marked, r.Ref)
	if len(f.marked) > 2 {
		f.marked = f.marked[len(f.marked)-2:]
	}
	if len(f.marked) == 1 {
		f.flash = "marked A: mark another conversation (m), then c compares them"
	} else {
		f.flash = "marked B: c compares A with B"
	}
}

// compareMark is what a row's title starts with while it is marked.
func (f *Fleet) compareMark(ref model.ConversationRef) string {
	for k, m := range f.marked {
		if m == ref {
			return string(rune('A'+k)) + "▸ "
		}
	}
	return ""
}

// compareMarked opens both marked conversations in a command.
func (f *Fleet) compareMarked() tea.Cmd {
	if len(f.marked) != 2 {
		f.flash = "mark two conversations with m to compare them (D)"
		return nil
	}
	if f.opts.Open == nil {
		f.flash = "this fleet opens no conversation"
		return nil
	}
	open, refs, to := f.opts.Open, [2]model.ConversationRef{f.marked[0], f.marked[1]}, f.addr()
	ctx, end := context.WithCancel(context.Background())
	f.flash = "opening both to compare…"
	return func() tea.Msg {
		a, errA := open(ctx, refs[0])
		b, errB := open(ctx, refs[1])
		return fleetCompareMsg{Addr: to, a: a, b: b, end: end, err: errors.Join(errA, errB)}
	}
}

// showCompare pushes the comparison of the two opened conversations.
func (f *Fleet) showCompare(msg fleetCompareMsg) tea.Cmd {
	if msg.err != nil {
		msg.end()
		f.flash = "could not compare: " + sanitizeErr(msg.err)
		return nil
	}
	f.flash = ""
	side := func(o Options) CompareSide {
		return CompareSide{Title: o.Title, Source: o.Source, Log: o.Log, Feed: o.Feed, Live: o.Live, Ended: !o.Live}
	}
	return Push(NewCompare(CompareOptions{A: side(msg.a), B: side(msg.b),
		NoColor: f.opts.NoColor, Theme: f.opts.Theme, Profile: f.opts.Profile, End: msg.end}))
}
