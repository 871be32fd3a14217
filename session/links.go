package session

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/client/files"
	"ohwatch/model"
	"ohwatch/reducer"
	convui "ohwatch/tui/conversation"
)

// The conversations that came from a conversation's events (forks, and
// sub-conversations it launched) are known from their own listings: each
// names its parent (meta.json, or the agent-server's ConversationInfo).
// A view has the listing read (convui.Links.Refresh) in a command when it
// opens, every few seconds and after a fork made from it, and reads what
// was last read (convui.Links.Children) when it shows an event; a view of
// one of them opens on the same source, with links of its own. Nothing is
// read before a view asks: headless output never does.

// relatives is a source's listing of conversations with their parents,
// as last read; refresh reads it again when it is older than refreshEvery.
type relatives struct {
	read         func(ctx context.Context) ([]convui.Link, []string, error) // every conversation's link and parent
	refreshEvery time.Duration
	mu           sync.Mutex
	at           time.Time
	links        []convui.Link
	parents      []string
}

// children lists the conversations whose parent is id, as last read. It
// reads nothing: the view calls it from Update and View.
func (r *relatives) children(id string) []convui.Link {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []convui.Link
	for k, p := range r.parents {
		if p == id && r.links[k].ID != id {
			out = append(out, r.links[k])
		}
	}
	return out
}

// refresh reads the listing again when the last read is older than
// refreshEvery (or was made stale). It blocks; the view runs it in a
// command. A failed read keeps the last listing.
func (r *relatives) refresh(ctx context.Context) {
	r.mu.Lock()
	fresh := !r.at.IsZero() && time.Since(r.at) < r.refreshEvery
	r.mu.Unlock()
	if fresh {
		return
	}
	links, parents, err := r.read(ctx)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.links, r.parents, r.at = links, parents, time.Now()
}

// stale makes the next refresh read the listing again, whatever its age:
// a fork was just made, and its parent's view should show it.
func (r *relatives) stale() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.at = time.Time{}
}

// localLinks are the links of a conversation directory in a local root:
// its siblings that name it as their parent in meta.json.
type localLinks struct {
	root string
	id   string
	rel  *relatives
}

// newLocalLinks gives the view of the conversation in dir (id) the
// conversations of the same root forked or launched from it; nil when
// dir is not a conversation directory.
func newLocalLinks(dir, id string) convui.Links {
	if id == "" || !files.IsConversationDir(dir) {
		return nil
	}
	root := filepath.Dir(dir)
	rel := &relatives{refreshEvery: 10 * time.Second, read: func(ctx context.Context) ([]convui.Link, []string, error) {
		sums, err := files.ListContext(ctx, root)
		if err != nil {
			return nil, nil, err
		}
		links, parents := make([]convui.Link, len(sums)), make([]string, len(sums))
		for k, s := range sums {
			links[k] = convui.Link{ID: s.ID, Title: s.Title, Event: s.ForkedFromEvent}
			parents[k] = s.ParentID
		}
		return links, parents, nil
	}}
	return localLinks{root: root, id: id, rel: rel}
}

// Children implements convui.Links.
func (l localLinks) Children() []convui.Link { return l.rel.children(l.id) }

// Refresh implements convui.Links.
func (l localLinks) Refresh(ctx context.Context) { l.rel.refresh(ctx) }

// Open implements convui.Links: the conversation read as `replay` reads it.
func (l localLinks) Open(ctx context.Context, id string) (convui.Options, error) {
	id = model.NormalizeConversationID(id)
	dir := filepath.Join(l.root, id)
	if !files.IsConversationDir(dir) {
		dir = ""
		if sums, err := files.ListContext(ctx, l.root); err == nil {
			for _, s := range sums {
				if s.ID == id {
					dir = s.Path
				}
			}
		}
	}
	if dir == "" {
		return convui.Options{}, os.ErrNotExist
	}
	r, err := files.Open(dir)
	if err != nil {
		return convui.Options{}, err
	}
	header := r.Header()
	feed := make(chan model.Batch, 4)
	go streamInto(ctx, r, feed, nil)
	return convui.Options{
		Title:  TitleOf(header.Title, header.ID, dir),
		Source: "replay " + dir,
		Log:    reducer.NewLog(header.Base, header.EventFiles),
		Feed:   feed,
		Links:  localLinks{root: l.root, id: header.ID, rel: l.rel},
	}, nil
}

// serverLinks are the links of a conversation of an agent-server: the
// conversations its search lists with this one as the parent they were
// forked from or delegated by.
type serverLinks struct {
	c   *agentserver.Client
	id  string
	rel *relatives
}

// newServerLinks gives the live view of conversation id on c's server the
// conversations forked or launched from it.
func newServerLinks(c *agentserver.Client, id string) serverLinks {
	rel := &relatives{refreshEvery: 5 * time.Second, read: func(ctx context.Context) ([]convui.Link, []string, error) {
		infos, err := c.SearchConversations(ctx)
		if err != nil {
			return nil, nil, err
		}
		var links []convui.Link
		var parents []string
		for _, info := range infos {
			child := model.NormalizeConversationID(info.ID)
			if p := info.ParentID(); p != "" {
				links = append(links, convui.Link{ID: child, Title: info.Title, Event: info.ForkedFromEventID})
				parents = append(parents, model.NormalizeConversationID(p))
			}
			// A sub-conversation may not name its parent: the parent's
			// sub_conversation_ids say it.
			for _, sub := range info.SubConversationIDs {
				links = append(links, convui.Link{ID: model.NormalizeConversationID(sub)})
				parents = append(parents, child)
			}
		}
		return links, parents, nil
	}}
	id = model.NormalizeConversationID(id)
	return serverLinks{c: c, id: id, rel: rel}
}

// Children implements convui.Links.
func (l serverLinks) Children() []convui.Link { return l.rel.children(l.id) }

// Refresh implements convui.Links.
func (l serverLinks) Refresh(ctx context.Context) { l.rel.refresh(ctx) }

// Open implements convui.Links: a live watch of the conversation, with the
// same powers over it as `watch` has.
func (l serverLinks) Open(ctx context.Context, id string) (convui.Options, error) {
	opts, _ := brancher{ctx: ctx, c: l.c, id: model.NormalizeConversationID(id), rel: l.rel}.Open(ctx, id)
	return opts, nil
}
