package fleetview

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/compareview"
	"ohwatch/tui/conversation"
)

// Two conversations of the fleet are compared by marking them (m on each;
// a third mark drops the oldest) and pressing c: both are opened as enter
// opens one, and the compare screen shows the first marked (A) against
// the second (B). esc comes back to the table, which ends both feeds.

// FleetCompareMsg is sent when both marked conversations were opened.
type FleetCompareMsg struct {
	tui.Addr
	a, b conversation.Options
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
	for k, m := range f.Marked {
		if m == r.Ref {
			f.Marked = append(f.Marked[:k:k], f.Marked[k+1:]...)
			f.flash = "unmarked " + sanitize.Line(r.Title)
			return
		}
	}
	f.Marked = append(f.Marked, r.Ref)
	if len(f.Marked) > 2 {
		f.Marked = f.Marked[len(f.Marked)-2:]
	}
	if len(f.Marked) == 1 {
		f.flash = "marked A: mark another conversation (m), then c compares them"
	} else {
		f.flash = "marked B: c compares A with B"
	}
}

// compareMark is what a row's title starts with while it is marked.
func (f *Fleet) compareMark(ref model.ConversationRef) string {
	for k, m := range f.Marked {
		if m == ref {
			return string(rune('A'+k)) + "▸ "
		}
	}
	return ""
}

// compareMarked opens both marked conversations in a command.
func (f *Fleet) compareMarked() tea.Cmd {
	if len(f.Marked) != 2 {
		f.flash = "mark two conversations with m to compare them (D)"
		return nil
	}
	if f.opts.Open == nil {
		f.flash = "this fleet opens no conversation"
		return nil
	}
	open, refs, to := f.opts.Open, [2]model.ConversationRef{f.Marked[0], f.Marked[1]}, f.Addr()
	ctx, end := context.WithCancel(context.Background())
	f.flash = "opening both to compare…"
	return func() tea.Msg {
		a, errA := open(ctx, refs[0])
		b, errB := open(ctx, refs[1])
		return FleetCompareMsg{Addr: to, a: a, b: b, end: end, err: errors.Join(errA, errB)}
	}
}

// showCompare pushes the comparison of the two opened conversations.
func (f *Fleet) showCompare(msg FleetCompareMsg) tea.Cmd {
	if msg.err != nil {
		msg.end()
		f.flash = "could not compare: " + conversation.SanitizeErr(msg.err)
		return nil
	}
	f.flash = ""
	side := func(o conversation.Options) compareview.CompareSide {
		return compareview.CompareSide{Title: o.Title, Source: o.Source, Log: o.Log, Feed: o.Feed, Live: o.Live, Ended: !o.Live}
	}
	opts := compareview.CompareOptions{A: side(msg.a), B: side(msg.b), End: msg.end}
	opts.SetCommon(f.Common)
	return tui.Push(compareview.NewCompare(opts))
}
