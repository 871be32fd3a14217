package fleetview

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"ohwatch/guard"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/conversation"
)

// fleetGuardMark marks a row whose run a guard stopped.
const fleetGuardMark = "‖"

// tableGuards are the fleet table's guards (FleetOptions.Guards): every
// conversation judged on its own events; the runs they stopped are marked.
type tableGuards struct {
	judge *guard.Fleet
	// stopped are the runs a guard stopped; the value says whether the
	// pause has been seen (once it runs again after it, the mark goes).
	stopped map[model.ConversationRef]bool
}

// fleetGuardDoneMsg is the answer to a guard's pause on the table.
type fleetGuardDoneMsg struct {
	tui.Addr
	ref  model.ConversationRef
	text string
	ok   bool
}

// guardUpdates judges the updates' events and acts on trips of runs in
// progress: a pause or interrupt guard goes through the row's controls.
func (f *Fleet) guardUpdates(ups []model.FleetUpdate) tea.Cmd {
	if len(f.opts.Guards) == 0 {
		return nil
	}
	g := &f.guards
	if g.judge == nil {
		g.judge, g.stopped = guard.NewFleet(f.opts.Guards), map[model.ConversationRef]bool{}
	}
	var cmds []tea.Cmd
	for _, rep := range g.judge.Apply(ups) {
		if rep.Kind == guard.CannotJudge || (rep.Status != model.StatusRunning && rep.Status != model.StatusWaitingForConfirmation) {
			continue
		}
		text := rep.Ref.ID + ": guard " + rep.Rule.Text + " tripped (" + guard.Format(rep.Rule.Metric, rep.Value) + ")"
		steer := f.steerOf(rep.Ref)
		switch {
		case !rep.Rule.Action.Stops():
			f.flash = sanitize.Line(text)
		case steer == nil:
			f.flash = sanitize.Line(text + " → not sent: its source offers no controls here")
		default:
			if _, done := g.stopped[rep.Ref]; done {
				continue
			}
			g.stopped[rep.Ref] = false
			to, ref, action := f.Addr(), rep.Ref, rep.Rule.Action
			cmds = append(cmds, func() tea.Msg {
				ctx, cancel := context.WithTimeout(context.Background(), conversation.RespondTimeout)
				defer cancel()
				result := conversation.GuardStop(ctx, steer, action)
				return fleetGuardDoneMsg{Addr: to, ref: ref, text: text + " → " + result, ok: result == "paused" || result == "interrupted" || result == "no /interrupt on this server: paused instead"}
			})
		}
	}
	for ref, paused := range g.stopped {
		switch g.judge.Status(ref) {
		case model.StatusPaused:
			g.stopped[ref] = true
		case model.StatusRunning:
			if paused {
				delete(g.stopped, ref) // resumed: its guards re-armed
			}
		}
	}
	return tea.Batch(cmds...)
}

// guardDone shows what a guard's pause did.
func (f *Fleet) guardDone(msg fleetGuardDoneMsg) {
	f.flash = sanitize.Line(msg.text)
	if !msg.ok {
		delete(f.guards.stopped, msg.ref)
	}
}

// guardStopped reports whether a guard stopped ref's run.
func (f *Fleet) guardStopped(ref model.ConversationRef) bool {
	_, ok := f.guards.stopped[ref]
	return ok
}
