package session

import convui "ohwatch/tui/conversation"

// Parent implements convui.Parented: the conversation of the same root this
// one's meta.json names as where it was forked from, as last listed.
func (l localLinks) Parent() (convui.Link, bool) { return l.rel.parent(l.id) }

// Parent implements convui.Parented: the conversation the server says this
// one was forked from, as last listed.
func (l serverLinks) Parent() (convui.Link, bool) { return l.rel.parent(l.id) }

// parent is the conversation id was forked from (its title, and the event
// forked at), as last read; ok is false for one that is no fork. It reads
// nothing: the view calls it from Update.
func (r *relatives) parent(id string) (convui.Link, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k, l := range r.links {
		if l.ID != id || l.Event == "" || r.parents[k] == "" {
			continue
		}
		out := convui.Link{ID: r.parents[k], Event: l.Event}
		for _, p := range r.links {
			if p.ID == out.ID {
				out.Title = p.Title
			}
		}
		return out, true
	}
	return convui.Link{}, false
}

// Both sources' links know a fork's parent, so D opens the comparison.
var (
	_ convui.Parented = localLinks{}
	_ convui.Parented = serverLinks{}
)
