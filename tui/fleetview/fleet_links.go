package fleetview

import (
	"context"

	"ohwatch/model"
	"ohwatch/tui/conversation"
)

// fleetLinks gives a conversation opened from the fleet table the
// conversations the fleet lists under it (forks and delegated ones, from
// the sources' parent links), and opens one through the table's Open: the
// same source, live when it is.
type fleetLinks struct {
	f   *Fleet
	ref model.ConversationRef
}

// Children implements Links. The view reads OwnChildren instead, in
// Update: the table's state is its Update's alone.
func (fleetLinks) Children() []conversation.Link { return nil }

// OwnChildren implements OwnLinks: the rows the table lists under this
// conversation, read in Update, as the table reads them.
func (l fleetLinks) OwnChildren() []conversation.Link {
	rows := l.f.fleet.Children(l.ref)
	out := make([]conversation.Link, 0, len(rows))
	for _, r := range rows {
		out = append(out, conversation.Link{ID: r.Ref.ID, Title: r.Title, Event: r.ForkedFromEvent})
	}
	return out
}

// Parent implements Parented: the row the table draws this conversation
// under, as the table knows it, so that D on a fork opened from the
// fleet compares it with the parent the table shows. It is read in
// Update, as the table reads its rows.
func (l fleetLinks) Parent() (conversation.Link, bool) {
	r, ok := l.f.fleet.Row(l.ref)
	if !ok || r.ParentID == "" {
		return conversation.Link{}, false
	}
	parent := l.ref
	parent.ID = r.ParentID
	link := conversation.Link{ID: r.ParentID, Event: r.ForkedFromEvent}
	if p, ok := l.f.fleet.Row(parent); ok {
		link.Title = p.Title
	}
	return link, true
}

// Refresh implements Links: the table's sources keep its listing current
// by themselves.
func (fleetLinks) Refresh(context.Context) {}

// Open implements Links.
func (l fleetLinks) Open(ctx context.Context, id string) (conversation.Options, error) {
	ref := l.ref
	ref.ID = model.NormalizeConversationID(id)
	opts, err := l.f.opts.Open(ctx, ref)
	if err == nil && opts.Links == nil {
		opts.Links = fleetLinks{f: l.f, ref: ref}
	}
	return opts, err
}
