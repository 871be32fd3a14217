package conversation

import (
	"context"
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"ohwatch/guard"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
)

// guardView is the view's guards (Options.Guards): judged on every event
// as it arrives, on a fold of their own, so the header can show how close
// each is and a trip can act at once.
type guardView struct {
	st     reducer.State
	n      int    // events judged so far
	banner string // the latest trip and what was done, "" for none
	note   string // a guard that cannot judge this conversation says so once
	// stopRule and stopAt are the rule whose trip stopped the run and the
	// event it tripped at, while the banner says so: once the run goes on
	// (the rule re-armed), the banner says that instead.
	stopRule string
	stopAt   int
}

// guardDoneMsg is the answer to a tripped guard's pause or interrupt.
type guardDoneMsg struct {
	tui.Addr
	banner string
}

// guardNew judges the events that arrived since the last call. A trip in a
// recording is a dry run; in a live conversation a pause or interrupt
// guard stops the run through Steering, once its history is in and only
// if it still runs.
func (m *Conversation) guardNew() tea.Cmd {
	set := m.Opts.Guards
	if set == nil {
		return nil
	}
	g := &m.guarded
	if g.n == 0 {
		g.st = m.Log.Initial()
	}
	var cmds []tea.Cmd
	for ; g.n < m.Log.Len(); g.n++ {
		ev := m.Log.Event(g.n)
		g.st = reducer.ApplyAt(g.st, g.n, ev)
		for _, rep := range set.Observe(g.n, ev, &g.st) {
			cmds = append(cmds, m.guardTrip(rep))
		}
		if cmd := m.guardRunsAgain(set); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	return tea.Batch(cmds...)
}

// guardRunsAgain takes down the banner of a trip that stopped the run once
// the run goes on and the rule is armed again (its "tripped … paused" is
// no longer true), and says so in the footer.
func (m *Conversation) guardRunsAgain(set *guard.Set) tea.Cmd {
	g := &m.guarded
	if g.stopRule == "" || g.n <= g.stopAt || g.st.Status != model.StatusRunning {
		return nil
	}
	for _, r := range set.Guards() {
		if r.Rule.Text == g.stopRule && !r.Tripped {
			text := "guard " + g.stopRule + " armed again at " + guard.Short(r.Rule.Metric, r.Next) +
				": the run it stopped at " + tui.Ordinal(g.stopAt) + " goes on since " + tui.Ordinal(g.n)
			g.banner, g.stopRule = "", ""
			m.fixTop()
			return m.setFlash(text)
		}
	}
	return nil
}

// guardTrip shows a trip and acts on it.
func (m *Conversation) guardTrip(rep guard.Report) tea.Cmd {
	g := &m.guarded
	text := "guard " + rep.Rule.Text
	if rep.Kind == guard.CannotJudge {
		g.note = text + ": " + rep.Note
		return nil
	}
	value, limit := guard.Pair(rep.Rule.Metric, rep.Value, rep.Limit)
	text += " tripped at " + tui.Ordinal(rep.Index) + ": " + string(rep.Rule.Metric) + " " + value + " > " + limit
	steer, status := m.steering(), m.Log.Latest().Status
	switch {
	case !rep.Rule.Action.Stops():
		g.banner = text
	case !m.Opts.Live:
		g.banner = text + " → would " + string(rep.Rule.Action) + " here (dry run: a recording)"
	case steer == nil:
		g.banner = text + " → not sent: this source offers no controls"
	case status != model.StatusRunning && status != model.StatusWaitingForConfirmation:
		g.banner = text + " → not sent: the conversation is " + model.StatusWords(status)
	default:
		g.banner = text + " → " + string(rep.Rule.Action) + ": sending…"
		g.stopRule, g.stopAt = rep.Rule.Text, rep.Index
		to, action := m.Addr(), rep.Rule.Action
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), RespondTimeout)
			defer cancel()
			return guardDoneMsg{Addr: to, banner: text + " → " + GuardStop(ctx, steer, action)}
		}
	}
	return m.guardBell()
}

// GuardStop pauses or interrupts for a guard and words the answer: an
// interrupt a server does not have falls back to a pause.
func GuardStop(ctx context.Context, s Steering, a guard.Action) string {
	if a == guard.Interrupt {
		err := s.Interrupt(ctx)
		if err == nil {
			return "interrupted"
		}
		if !errors.Is(err, ErrUnsupported) {
			return "interrupt failed: " + SanitizeErr(err)
		}
		if err := s.Pause(ctx); err != nil {
			return "no /interrupt here, and the pause sent instead failed: " + SanitizeErr(err)
		}
		return "no /interrupt on this server: paused instead"
	}
	if err := s.Pause(ctx); err != nil {
		return "pause failed: " + SanitizeErr(err)
	}
	return "paused"
}

// guardDone shows what the guard's request did.
func (m *Conversation) guardDone(msg guardDoneMsg) tea.Cmd {
	if m.guarded.stopRule == "" {
		return nil // the run went on before the answer came: that is the news
	}
	m.guarded.banner = msg.banner
	m.fixTop()
	return m.guardBell()
}

// guardBell rings for a trip, as for a status that needs the user.
func (m *Conversation) guardBell() tea.Cmd {
	if !m.Opts.Notify {
		return nil
	}
	return tea.Raw("\a")
}

// guardBanner is the banner of the latest trip (or of a guard that cannot
// judge); "" for none.
func (m *Conversation) guardBanner() string {
	if m.guarded.banner != "" {
		return sanitize.Line(m.guarded.banner)
	}
	return sanitize.Line(m.guarded.note)
}

// guardBadge is the header's word on the armed guards: how far each is
// from its limit ("guard $4.10/$5"); "" without guards.
func (m *Conversation) guardBadge() string {
	var parts []string
	for _, g := range m.Opts.Guards.Guards() {
		if g.Tripped {
			continue
		}
		value := "?"
		if g.Known {
			value = guard.Format(g.Rule.Metric, g.Value)
		}
		parts = append(parts, value+"/"+guard.Short(g.Rule.Metric, g.Next))
	}
	if len(parts) == 0 {
		return ""
	}
	return "guard " + strings.Join(parts, " ")
}
