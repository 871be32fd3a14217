package fleetview

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
)

// Opening a row: the table asks its caller to open the conversation (a
// command, while the table keeps streaming), then pushes its view; a
// paused sandbox is asked about first.

// open starts opening the selected conversation in the full monitor:
// Open runs in a command while the table keeps streaming. Every open loads
// the events again: a conversation left for the table was released. A
// conversation whose sandbox is paused is asked about first, when its
// sandbox can be resumed.
func (f *Fleet) open() tea.Cmd {
	r, ok := f.current()
	if !ok {
		return nil
	}
	if f.opts.Open == nil || f.opening.ID != "" {
		return nil
	}
	f.fleet.Seen(r.Ref)
	if r.Paused && f.opts.Resume != nil {
		f.askResume(r)
		f.arrange()
		return nil
	}
	return f.startOpen(r.Ref, f.opts.Open)
}

// startOpen runs open (Open or Resume) for ref in a command, on a context
// that lives as long as the view it prepares.
func (f *Fleet) startOpen(ref model.ConversationRef, open func(context.Context, model.ConversationRef) (conversation.Options, error)) tea.Cmd {
	f.opening = ref
	f.arrange()
	ctx, end := context.WithCancel(context.Background())
	f.endOpening = end
	f.openGen++
	to, gen := f.Addr(), f.openGen
	return func() tea.Msg {
		opts, err := open(ctx, ref)
		return fleetOpenedMsg{Addr: to, gen: gen, ref: ref, opts: opts, err: err}
	}
}

// stopOpening gives up the open in progress: its context ends (a load or
// a wait for the sandbox stops) and its answer, when it comes, is dropped.
// A resume already asked of the Cloud is not taken back.
func (f *Fleet) stopOpening() {
	if f.endOpening != nil {
		f.endOpening()
	}
	id := sanitize.Line(f.opening.ID)
	f.flash = "stopped opening " + id
	if f.resuming {
		f.flash = "stopped waiting for the sandbox of " + id + " (the resume asked for goes on)"
	}
	f.opening, f.endOpening, f.resuming = model.ConversationRef{}, nil, false
	f.openGen++
	f.arrange()
}

// show shows the conversation Open prepared, or says why it could not.
func (f *Fleet) show(msg fleetOpenedMsg) tea.Cmd {
	if msg.gen != f.openGen {
		return nil // stopped with esc: its context has ended, and its feed with it
	}
	end, resumed := f.endOpening, f.resuming
	f.opening, f.endOpening, f.resuming = model.ConversationRef{}, nil, false
	f.arrange()
	if end == nil {
		end = func() {}
	}
	if msg.err != nil {
		end()
		what := "could not open "
		if resumed {
			what = "could not resume the sandbox of "
		}
		f.flash = what + sanitize.Line(msg.ref.ID) + ": " + sanitize.Line(msg.err.Error())
		return nil
	}
	ref := msg.ref
	if msg.opts.Links == nil {
		msg.opts.Links = fleetLinks{f: f, ref: ref}
	}
	s := &fleetConversation{Conversation: conversation.NewConversation(msg.opts), end: end, seen: func() {
		f.fleet.Seen(ref)
		f.arrange()
	}}
	return tui.Push(s)
}
