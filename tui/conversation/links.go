package conversation

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/text"
)

// A conversation's events can start other conversations: a fork made from
// an event (POST /fork with from_event_id), and a sub-conversation an
// event launched (the agent-server's launch_child_conversation tool, whose
// observation names the child). The inspector of such an event says so,
// and O opens the conversation as a view of its own over this one (live
// when its source is); esc comes back.

// Links is what a view knows of the conversations that came from this
// one, and how to open one. main supplies it for the sources that can
// open another conversation (a fleet's, an agent-server, a local root);
// nil opens none. The view calls it only from commands, never from Update
// or View: what it lists reaches the view in a message (linksRefreshedMsg).
type Links interface {
	// Children lists the conversations known to have come from this one:
	// forks (Event is the event forked at) and delegated conversations
	// (Event ""), as the source last listed them. The view calls it in
	// the refresh command, after Refresh; it may lock, and reads nothing.
	Children() []Link
	// Refresh reads the source's listing again when the source finds the
	// last one old enough (or a fork made since made it stale). It blocks:
	// the view runs it in a command, when it opens, every linksEvery, and
	// after a fork made from it.
	Refresh(ctx context.Context)
	// Open prepares a view of conversation id of the same source. It runs
	// in a command, off the UI; ctx lives as long as the view, which ends
	// its feed.
	Open(ctx context.Context, id string) (Options, error)
}

// OwnLinks are Links whose listing is the UI's own state, kept current by
// another screen's Update (the fleet table's): the view reads them in
// Update, where they are current, and never from a command.
type OwnLinks interface {
	Links
	OwnChildren() []Link
}

// linksEvery is how often a view asks its Links to refresh; linksTimeout
// bounds one refresh.
const (
	linksEvery   = 5 * time.Second
	linksTimeout = 10 * time.Second
)

// linksRefreshedMsg carries the view's Links as a refresh listed them;
// again asks for the next one after linksEvery (the periodic chain, not a
// one-off).
type linksRefreshedMsg struct {
	tui.Addr
	links []Link
	again bool
}

// refreshLinksMsg starts the next periodic refresh.
type refreshLinksMsg struct{ tui.Addr }

// refreshLinks reads the view's Links again in a command; again keeps the
// periodic chain going (one chain per view: a one-off, after a fork, says
// false).
func (m *Conversation) refreshLinks(again bool) tea.Cmd {
	links, to := m.Opts.Links, m.Addr()
	if links == nil {
		return nil
	}
	if _, own := links.(OwnLinks); own {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), linksTimeout)
		defer cancel()
		links.Refresh(ctx)
		return linksRefreshedMsg{Addr: to, links: links.Children(), again: again}
	}
}

// linksRefreshed keeps the links a refresh listed and schedules the next
// periodic refresh.
func (m *Conversation) linksRefreshed(msg linksRefreshedMsg) tea.Cmd {
	m.links = msg.links
	if !msg.again {
		return nil
	}
	to := m.Addr()
	return tea.Tick(linksEvery, func(time.Time) tea.Msg { return refreshLinksMsg{Addr: to} })
}

// Link is a conversation that came from an event of this one.
type Link struct {
	ID    string // normalised conversation id
	Title string // "" when unknown
	// Event is the event it was forked at; "" for a sub-conversation.
	Event string
	// Launched is set for a sub-conversation the event launched.
	Launched bool
}

// children are the conversations that came from this one, as the last
// refresh listed them (or, for OwnLinks, as they are now).
func (m *Conversation) children() []Link {
	if own, ok := m.Opts.Links.(OwnLinks); ok {
		return own.OwnChildren()
	}
	return m.links
}

// linksAt lists the conversations that came from event i: the
// sub-conversation it launched, then the forks made from it.
func (m *Conversation) linksAt(i int) []Link {
	if i < 0 || i >= m.Log.Len() {
		return nil
	}
	ev := m.Log.Event(i)
	known := m.children()
	var out []Link
	if id := model.SpawnedConversation(&ev); id != "" {
		l := Link{ID: id, Launched: true}
		for _, k := range known {
			if k.ID == id {
				l.Title = k.Title
			}
		}
		out = append(out, l)
	}
	if ev.ID == "" {
		return out
	}
	for _, k := range known {
		if k.Event == ev.ID && k.ID != "" {
			k.Launched = false
			out = append(out, k)
		}
	}
	return out
}

// linkedRows are those of rows that another conversation came from: a
// fork made at the event, or the sub-conversation it launched. The list
// marks them so that O is found without opening every event.
func (m *Conversation) linkedRows(rows []int) []int {
	var forkedAt map[string]bool
	for _, k := range m.children() {
		if k.Event != "" && k.ID != "" {
			if forkedAt == nil {
				forkedAt = map[string]bool{}
			}
			forkedAt[k.Event] = true
		}
	}
	var out []int
	for _, i := range rows {
		ev := m.Log.Event(i)
		if (ev.ID != "" && forkedAt[ev.ID]) || model.SpawnedConversation(&ev) != "" {
			out = append(out, i)
		}
	}
	return out
}

// linkLabel is how a linked conversation is named on one line.
func linkLabel(l Link) string {
	what := "fork "
	if l.Launched {
		what = "sub-conversation "
	}
	id := l.ID
	if len(id) > 8 {
		id = id[:8]
	}
	label := what + id
	if l.Title != "" {
		label += " " + strings.TrimSpace(sanitize.Line(l.Title))
	}
	return label
}

// linkLines are the inspector's first lines for an event others came
// from: what each is and the key that opens it.
func (m *Conversation) linkLines(i int) []string {
	links := m.linksAt(i)
	if len(links) == 0 {
		return nil
	}
	s := m.styles
	keyName := m.keys.OpenLink.Help().Key
	out := make([]string, 0, len(links)+1)
	for _, l := range links {
		verb := "forked here: "
		if l.Launched {
			verb = "launched: "
		}
		out = append(out, s.Info.Render(s.Glyphs.MarkBranch+" "+verb+linkLabel(l)))
	}
	how := keyName + " opens it"
	if len(links) > 1 {
		how = keyName + " opens one of them"
	}
	if m.Opts.Links == nil {
		how = "this source opens no other conversation"
	}
	return append(out, s.Muted.Render("  "+how), "")
}

// askOpenLink answers O: it opens the one conversation that came from the
// event, or offers them by number.
func (m *Conversation) askOpenLink() tea.Cmd {
	at := m.eventForAction()
	links := m.linksAt(at)
	switch {
	case len(links) == 0:
		return m.setFlash("no conversation was forked or launched from " + tui.Ordinal(at))
	case m.Opts.Links == nil:
		return m.setFlash("cannot open " + linkLabel(links[0]) + ": this source opens no other conversation")
	case len(links) == 1:
		return m.openLink(links[0])
	}
	m.openPrompt(Prompt{Kind: promptLinks, links: linkChoice{at: at, choices: links}})
	return nil
}

// linkChoice is what O offers: the conversations that came from event at.
type linkChoice struct {
	at      int
	choices []Link
}

// linkOpenedMsg is sent when Links.Open prepared a view.
type linkOpenedMsg struct {
	tui.Addr
	link Link
	opts Options
	end  context.CancelFunc
	err  error
}

// openLink prepares the view of a linked conversation in a command.
func (m *Conversation) openLink(l Link) tea.Cmd {
	links, to := m.Opts.Links, m.Addr()
	ctx, end := context.WithCancel(context.Background())
	flash := m.setFlash("opening " + linkLabel(l) + "…")
	return tea.Batch(flash, func() tea.Msg {
		opts, err := links.Open(ctx, l.ID)
		return linkOpenedMsg{Addr: to, link: l, opts: opts, end: end, err: err}
	})
}

// linkOpened pushes the linked conversation's view over this one.
func (m *Conversation) linkOpened(msg linkOpenedMsg) tea.Cmd {
	if msg.err != nil {
		msg.end()
		return m.setFlash("could not open " + linkLabel(msg.link) + ": " + SanitizeErr(msg.err))
	}
	if msg.opts.StartAt == "" {
		// A recorded fork opens where it parts from this conversation.
		msg.opts.StartAt = msg.link.Event
	}
	view := &linkedConversation{Conversation: NewConversationWith(m.Common, msg.opts), end: msg.end}
	flash := m.setFlash("opened " + linkLabel(msg.link) + "; esc comes back here")
	return tea.Batch(flash, tui.Push(view))
}

// linkedConversation is a conversation opened from an event of another:
// it lives while it is on the stack; going back releases it (its
// context is cancelled, which ends its feed).
type linkedConversation struct {
	*Conversation
	end context.CancelFunc
}

// release implements releasable.
func (c *linkedConversation) Release() {
	if c.end != nil {
		c.end()
	}
	c.Conversation = nil
}

// renderLinks draws O's list on the prompt line.
func (p Prompt) renderLinks(s theme.Styles, cells text.Cells, width int) string {
	l := p.links
	items := make([]string, len(l.choices))
	for k, c := range l.choices {
		items[k] = linkLabel(c)
	}
	return renderChoices(s, cells, "open from "+tui.Ordinal(l.at)+":", items, width)
}
