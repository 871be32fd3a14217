package conversation

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui"
	"ohwatch/tui/text"
)

// "The agent went wrong here; try again from here": b forks the
// conversation at the cursor's event (a title, an optional first message,
// then y), H moves its HEAD there (y). Both go through Options.Branching;
// main supplies it for a live agent-server only.

// treeTimeout bounds a fork (with its first message) or a navigate.
const treeTimeout = 30 * time.Second

// ForkPlan is what b asks about: the event forked from, and the title and
// first message typed so far.
type ForkPlan struct {
	Index   int
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

// ForkDoneMsg is sent when Branching.Fork finished, with the fork's view
// prepared by Branching.Open (opened false when another screen shows it)
// and what ends that view's context.
type ForkDoneMsg struct {
	tui.Addr
	Plan   ForkPlan
	ID     string
	err    error
	opts   Options
	opened bool
	end    context.CancelFunc
}

// navigateDoneMsg is sent when Branching.Navigate finished.
type navigateDoneMsg struct {
	tui.Addr
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
	case m.Opts.Branching == nil && !m.Opts.Live:
		return "cannot " + op + ": this is a recording; " + op + " needs a live agent-server conversation"
	case m.Opts.Branching == nil:
		return "cannot " + op + ": this source has no fork or navigate (an agent-server has)"
	case m.tree.unsupported != "":
		return "cannot " + op + ": " + m.tree.unsupported
	case m.cursor < 0:
		return "cannot " + op + ": no event yet"
	}
	if ev := m.Log.Event(m.cursor); !treeEventAt(ev) {
		return "cannot " + op + " at " + tui.Ordinal(m.cursor) + ": " + notAStep(ev) + " is not a step"
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
	plan := ForkPlan{Index: m.cursor, eventID: m.Log.Event(m.cursor).ID}
	m.openPrompt(Prompt{Kind: promptForkTitle, in: NewTextInput(), fork: plan})
	return nil
}

// askNavigate opens H's question about the cursor's event.
func (m *Conversation) askNavigate() tea.Cmd {
	if why := m.treeRefusal("move HEAD"); why != "" {
		return m.setFlash(why)
	}
	m.openPrompt(Prompt{Kind: promptNavigate, fork: ForkPlan{Index: m.cursor, eventID: m.Log.Event(m.cursor).ID}})
	return nil
}

// forkTextEntered takes the title or the message typed into b's prompt and
// asks the next question: title, then message, then y/n.
func (m *Conversation) forkTextEntered(p Prompt) tea.Cmd {
	plan := p.fork
	text := strings.TrimSpace(sanitize.Line(p.in.Value()))
	if p.Kind == promptForkTitle {
		plan.title = text
		m.openPrompt(Prompt{Kind: promptForkMessage, in: NewTextInput(), fork: plan})
		return nil
	}
	plan.message = text
	m.openPrompt(Prompt{Kind: promptForkConfirm, fork: plan})
	return nil
}

// treeConfirmed sends a fork or a navigate the prompt said y to.
func (m *Conversation) treeConfirmed(p Prompt) tea.Cmd {
	b, to := m.Opts.Branching, m.Addr()
	plan := p.fork
	if p.Kind == promptNavigate {
		flash := m.setFlash("moving HEAD to " + tui.Ordinal(plan.Index) + "…")
		return tea.Batch(flash, func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), treeTimeout)
			defer cancel()
			return navigateDoneMsg{Addr: to, index: plan.Index, eventID: plan.eventID, err: b.Navigate(ctx, plan.eventID)}
		})
	}
	flash := m.setFlash("forking at " + tui.Ordinal(plan.Index) + "…")
	return tea.Batch(flash, func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), treeTimeout)
		defer cancel()
		id, err := b.Fork(ctx, plan.eventID, plan.title, plan.message)
		done := ForkDoneMsg{Addr: to, Plan: plan, ID: id, err: err}
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
		m.tree.unsupported = SanitizeErr(err)
	}
}

// forkDone opens the fork live: a view of its own pushed over this one,
// or, when another screen lists it (the fleet table), back to that screen.
func (m *Conversation) forkDone(msg ForkDoneMsg) tea.Cmd {
	m.remember(msg.err)
	if msg.ID == "" {
		return m.setFlash("fork failed: " + SanitizeErr(msg.err))
	}
	var warn string
	if msg.err != nil {
		warn = " (but: " + SanitizeErr(msg.err) + ")"
	}
	// The fork shows under its event once the links have read it.
	links := m.refreshLinks(false)
	if !msg.opened {
		flash := m.setFlash("forked at " + tui.Ordinal(msg.Plan.Index) + warn + ": the fleet lists it under this conversation")
		return tea.Batch(flash, links, tui.Back())
	}
	// Left with esc, the fork's view is released: its watch ends.
	view := &linkedConversation{Conversation: NewConversationWith(m.Common, msg.opts), end: msg.end}
	flash := m.setFlash("forked at " + tui.Ordinal(msg.Plan.Index) + warn + "; esc comes back here")
	return tea.Batch(flash, links, tui.Push(view))
}

// navigateDone reports a navigate and moves HEAD in the log at once: a
// navigate writes no event (the next snapshot says it again).
func (m *Conversation) navigateDone(msg navigateDoneMsg) tea.Cmd {
	m.remember(msg.err)
	if msg.err != nil {
		return m.setFlash("HEAD not moved: " + SanitizeErr(msg.err))
	}
	m.Log.SetLeaf(msg.eventID)
	return m.setFlash("HEAD moved to " + tui.Ordinal(msg.index) + ": the agent goes on from there")
}

// renderTreePrompt draws b's and H's prompts.
func (p Prompt) renderTreePrompt(s theme.Styles, cells text.Cells, width int) string {
	plan := p.fork
	switch p.Kind {
	case promptForkTitle, promptForkMessage:
		lead, hint := "fork at "+tui.Ordinal(plan.Index)+", title: ", "  enter next · esc cancel"
		if p.Kind == promptForkMessage {
			lead, hint = "first message: ", "  enter (empty: run on from there) · esc cancel"
		}
		room := width - cells.Width(lead) - cells.Width(hint)
		if room < 20 {
			room, hint = width-cells.Width(lead), ""
		}
		return s.Prompt.Render(lead) + InputField(cells, p.in, room) + s.Muted.Render(hint)
	case promptForkConfirm:
		what := "Fork at " + tui.Ordinal(plan.Index)
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
		return s.Warn.Render(cells.Truncate("Move this conversation's HEAD to "+tui.Ordinal(plan.Index)+"? The agent goes on from there. [y/n]", width, "…"))
	}
	return ""
}
