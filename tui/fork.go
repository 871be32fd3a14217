package tui

import (
	"context"
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui/text"
)

// "The agent went wrong here; try again from here": b forks the
// conversation at the cursor's event (a title, an optional first message,
// then y), H moves its HEAD there (y). Both go through Options.Branching;
// main supplies it for a live agent-server only.

// treeTimeout bounds a fork (with its first message) or a navigate.
const treeTimeout = 30 * time.Second

// forkPlan is what b asks about: the event forked from, and the title and
// first message typed so far.
type forkPlan struct {
	index   int
	eventID string
	title   string
	message string
}

// treeView is the conversation view's state about the tree: why the
// source refuses fork and navigate, once it said so.
type treeView struct {
	// unsupported is the source's answer to a fork or navigate it cannot
	// do (an agent-server older than 1.31); b and H say it at once after.
	unsupported string
	// branch is which branch the list shows (branches.go).
	branch branchView
	// reject is the branch point a rejection made (branch_reject.go).
	reject rejectBranch
}

// forkDoneMsg is sent when Branching.Fork finished, with the fork's view
// prepared by Branching.Open (opened false when another screen shows it)
// and what ends that view's context.
type forkDoneMsg struct {
	Addr
	plan   forkPlan
	id     string
	err    error
	opts   Options
	opened bool
	end    context.CancelFunc
}

// navigateDoneMsg is sent when Branching.Navigate finished.
type navigateDoneMsg struct {
	Addr
	index   int
	eventID string
	err     error
}

// treeEventAt reports whether event i can be forked from or made HEAD: an
// event of the conversation tree, not a state update, a conversation
// error or an event without an id.
func treeEventAt(ev model.Event) bool {
	if ev.ID == "" {
		return false
	}
	switch ev.Body.(type) {
	case *model.StateUpdate, *model.ConversationError:
		return false
	}
	return true
}

// treeRefusal says why op ("fork", "move HEAD") cannot act on the cursor's
// event; "" when it can.
func (m *Conversation) treeRefusal(op string) string {
	switch {
	case m.opts.Branching == nil && !m.opts.Live:
		return "cannot " + op + ": this is a recording; " + op + " needs a live agent-server conversation"
	case m.opts.Branching == nil:
		return "cannot " + op + ": this source has no fork or navigate (an agent-server has)"
	case m.tree.unsupported != "":
		return "cannot " + op + ": " + m.tree.unsupported
	case m.cursor < 0:
		return "cannot " + op + ": no event yet"
	}
	if ev := m.log.Event(m.cursor); !treeEventAt(ev) {
		return "cannot " + op + " at " + ordinal(m.cursor) + ": " + notAStep(ev) + " is not a step"
	}
	return ""
}

// notAStep names an event that is not a step of the conversation tree.
func notAStep(ev model.Event) string {
	switch ev.Body.(type) {
	case *model.StateUpdate:
		return "a state update"
	case *model.ConversationError:
		return "a conversation error"
	}
	return "an event without an id"
}

// askFork opens b's questions about the cursor's event: the title first.
func (m *Conversation) askFork() tea.Cmd {
	if why := m.treeRefusal("fork"); why != "" {
		return m.setFlash(why)
	}
	plan := forkPlan{index: m.cursor, eventID: m.log.Event(m.cursor).ID}
	m.input = prompt{kind: promptForkTitle, in: newTextInput(), fork: plan}
	return nil
}

// askNavigate opens H's question about the cursor's event.
func (m *Conversation) askNavigate() tea.Cmd {
	if why := m.treeRefusal("move HEAD"); why != "" {
		return m.setFlash(why)
	}
	m.input = prompt{kind: promptNavigate, fork: forkPlan{index: m.cursor, eventID: m.log.Event(m.cursor).ID}}
	return nil
}

// forkTextEntered takes the title or the message typed into b's prompt and
// asks the next question: title, then message, then y/n.
func (m *Conversation) forkTextEntered(p prompt) tea.Cmd {
	plan := p.fork
	text := strings.TrimSpace(model.SanitizeLine(p.in.Value()))
	if p.kind == promptForkTitle {
		plan.title = text
		m.input = prompt{kind: promptForkMessage, in: newTextInput(), fork: plan}
		return nil
	}
	plan.message = text
	m.input = prompt{kind: promptForkConfirm, fork: plan}
	return nil
}

// treeConfirmKey answers y/n for a fork or a navigate: y sends it, any
// other key cancels.
func (m *Conversation) treeConfirmKey(msg tea.KeyPressMsg) tea.Cmd {
	p := m.input
	m.input = prompt{}
	if !key.Matches(msg, m.keys.Confirm) {
		return m.setFlash("cancelled")
	}
	b, to := m.opts.Branching, m.addr()
	plan := p.fork
	if p.kind == promptNavigate {
		flash := m.setFlash("moving HEAD to " + ordinal(plan.index) + "…")
		return tea.Batch(flash, func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), treeTimeout)
			defer cancel()
			return navigateDoneMsg{Addr: to, index: plan.index, eventID: plan.eventID, err: b.Navigate(ctx, plan.eventID)}
		})
	}
	flash := m.setFlash("forking at " + ordinal(plan.index) + "…")
	return tea.Batch(flash, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), treeTimeout)
		defer cancel()
		id, err := b.Fork(ctx, plan.eventID, plan.title, plan.message)
		done := forkDoneMsg{Addr: to, plan: plan, id: id, err: err}
		if id != "" {
			// The view's context outlives this command: the view ends it
			// when it is left.
			viewCtx, end := context.WithCancel(context.Background())
			done.opts, done.opened = b.Open(viewCtx, id)
			done.end = end
			if !done.opened {
				end()
			}
		}
		return done
	})
}

// remember keeps the source's "not supported" answer, so b and H say it
// at once from now on.
func (m *Conversation) remember(err error) {
	if errors.Is(err, ErrTreeUnsupported) {
		m.tree.unsupported = sanitizeErr(err)
	}
}

// forkDone opens the fork live: a view of its own pushed over this one,
// or, when another screen lists it (the fleet table), back to that screen.
func (m *Conversation) forkDone(msg forkDoneMsg) tea.Cmd {
	m.remember(msg.err)
	if msg.id == "" {
		return m.setFlash("fork failed: " + sanitizeErr(msg.err))
	}
	var warn string
	if msg.err != nil {
		warn = " (but: " + sanitizeErr(msg.err) + ")"
	}
	// The fork shows under its event once the links have read it.
	links := m.refreshLinks(false)
	if !msg.opened {
		flash := m.setFlash("forked at " + ordinal(msg.plan.index) + warn + ": the fleet lists it under this conversation")
		return tea.Batch(flash, links, Back())
	}
	opts := msg.opts
	m.inherit(&opts)
	// Left with esc, the fork's view is released: its watch ends.
	view := &linkedConversation{Conversation: NewConversation(opts), end: msg.end}
	flash := m.setFlash("forked at " + ordinal(msg.plan.index) + warn + "; esc comes back here")
	return tea.Batch(flash, links, Push(view))
}

// inherit gives a view this one opens the display settings of this one.
func (m *Conversation) inherit(o *Options) {
	c := m.opts.Common()
	c.KeyMap = m.keys
	o.SetCommon(c)
}

// navigateDone reports a navigate and moves HEAD in the log at once: a
// navigate writes no event (the next snapshot says it again).
func (m *Conversation) navigateDone(msg navigateDoneMsg) tea.Cmd {
	m.remember(msg.err)
	if msg.err != nil {
		return m.setFlash("HEAD not moved: " + sanitizeErr(msg.err))
	}
	m.log.SetLeaf(msg.eventID)
	return m.setFlash("HEAD moved to " + ordinal(msg.index) + ": the agent goes on from there")
}

// renderTreePrompt draws b's and H's prompts.
func (p prompt) renderTreePrompt(s theme.Styles, cells text.Cells, width int) string {
	plan := p.fork
	switch p.kind {
	case promptForkTitle, promptForkMessage:
		lead, hint := "fork at "+ordinal(plan.index)+", title: ", "  enter next · esc cancel"
		if p.kind == promptForkMessage {
			lead, hint = "first message: ", "  enter (empty: run on from there) · esc cancel"
		}
		room := width - cells.Width(lead) - cells.Width(hint)
		if room < 20 {
			room, hint = width-cells.Width(lead), ""
		}
		return s.Prompt.Render(lead) + inputField(cells, p.in, room) + s.Muted.Render(hint)
	case promptForkConfirm:
		what := "Fork at " + ordinal(plan.index)
		if plan.title != "" {
			what += " as “" + plan.title + "”"
		}
		if plan.message != "" {
			what += ", send “" + plan.message + "”"
		} else {
			what += ", run it on from there"
		}
		return s.Warn.Render(cells.Truncate(what+" and open it? [y/n]", width, "…"))
	case promptNavigate:
		return s.Warn.Render(cells.Truncate("Move this conversation's HEAD to "+ordinal(plan.index)+"? The agent goes on from there. [y/n]", width, "…"))
	}
	return ""
}
