package reducer

import (
	"time"

	"ohwatch/model"
)

// setStatus records a status from a source. A transition is recorded only
// when the status value changes; a change of source or confirmation alone
// (a per-field finished confirmed by a snapshot) updates the fields
// without a transition.
func (s *State) setStatus(i int, at time.Time, status string, src StatusSource, confirmed bool) {
	if status == "" {
		return
	}
	if status != s.Status {
		status = own(status)
		s.transitions = s.transitions.push(Transition{Index: i, Time: at, From: s.Status, To: status, Source: src})
		s.Status = status
		s.StatusAt = i
	} else if s.StatusSource != src || s.StatusConfirmed != confirmed {
		s.StatusAt = i
	}
	s.StatusSource = src
	s.StatusConfirmed = confirmed
	if at.After(s.statusTime) {
		s.statusTime = at
	}
}

// infer sets a status read from content. Once a real execution_status has
// been seen (a per-field update, a snapshot), content must not fight it.
func (s *State) infer(i int, at time.Time, status string) {
	if s.sawStatus {
		return
	}
	s.setStatus(i, at, status, SourceInferred, false)
}

// applyStateUpdate applies a per-field update or a full_state snapshot.
// A snapshot is authoritative; a per-field execution_status older than the
// latest snapshot is a replay (the WebSocket resends history after the
// fresh snapshot) and must not regress it.
func (s *State) applyStateUpdate(i int, ev model.Event, u *model.StateUpdate) {
	if u.ConfirmationPolicy != "" && u.ConfirmationPolicy != s.ConfirmationPolicy {
		s.ConfirmationPolicy = own(u.ConfirmationPolicy)
	}
	if u.FullState {
		if ev.Time.After(s.snapshotAt) {
			s.snapshotAt = ev.Time
		}
		// A snapshot built before the status it would replace was set,
		// delivered after it (a socket subscribes before it builds its
		// snapshot, so live frames overtake it), is older news: it must not
		// put back "idle" over a run whose events keep arriving.
		older := !ev.Time.IsZero() && ev.Time.Before(s.statusTime) && u.ExecutionStatus != s.Status
		if u.ExecutionStatus != "" && !older {
			s.sawStatus = true
			s.setStatus(i, ev.Time, u.ExecutionStatus, SourceFullState, true)
		}
		if u.Stats != nil {
			s.applyStats(i, u.Stats)
		}
		return
	}
	// A replayed per-field update is as old as the history it comes from:
	// neither its status nor its accumulated stats may go back behind
	// the snapshot.
	stale := !s.snapshotAt.IsZero() && !ev.Time.IsZero() && ev.Time.Before(s.snapshotAt)
	if u.ExecutionStatus != "" {
		s.sawStatus = true
		if !stale {
			s.setStatus(i, ev.Time, u.ExecutionStatus, SourceStateUpdate, false)
		}
	}
	if u.Stats != nil && !stale {
		s.applyStats(i, u.Stats)
	}
}

// applyMessage handles a MessageEvent: a user message starts a turn (and a
// run); an agent reply with no tool call ends it.
func (s *State) applyMessage(i int, ev model.Event, m *model.Message) {
	s.history++
	switch {
	case ev.Source == "user":
		s.Iteration = 0
		s.infer(i, ev.Time, model.StatusRunning)
	case ev.Source == "agent":
		s.countResponse(i, ev, m.LLMResponseID, true)
		if !m.HasToolCalls {
			s.infer(i, ev.Time, model.StatusFinished)
		}
	case ev.Source == "environment" && m.Role == "user":
		// A synthetic user turn (stuck nudge, Stop-hook feedback, critic
		// follow-up) continues the run.
		s.infer(i, ev.Time, model.StatusRunning)
	}
}

// applyBase applies base_state.json, which describes the end of the log:
// its status (confirmed when finished, unless ohwatch derived it), its
// policy and its full stats.
func (s *State) applyBase(i int, at time.Time) {
	b := s.ctx.base
	if b == nil {
		return
	}
	if b.ConfirmationPolicy != "" {
		s.ConfirmationPolicy = b.ConfirmationPolicy
	}
	// A base state ohwatch derived from the events repeats what they say:
	// the events keep deciding, and nothing is confirmed by it.
	if b.ExecutionStatus != "" && !b.Derived {
		s.setStatus(i, at, b.ExecutionStatus, SourceBaseState, b.ExecutionStatus == model.StatusFinished)
	}
	if b.Stats != nil && !s.statsSeen {
		if m := metricsFromStats(b.Stats, s.Metrics, s.ctx); !metricsEqual(m, s.Metrics) {
			s.setMetrics(i, m)
		}
	}
}

// needsConfirmation reports whether policy would hold an action of this
// risk for the user's approval. With the policy unknown (the CLI
// recordings carry none) only a HIGH risk is taken to wait, the default of
// ConfirmRisky; FinishAction and ThinkAction never wait.
func needsConfirmation(policy string, a *model.Action) bool {
	switch a.ActionKind {
	case "", "FinishAction", "ThinkAction":
		return false
	}
	switch policy {
	case "NeverConfirm":
		return false
	case "AlwaysConfirm":
		return true
	case "ConfirmRisky":
		return a.SecurityRisk == "HIGH" || a.SecurityRisk == "UNKNOWN" || a.SecurityRisk == ""
	}
	return a.SecurityRisk == "HIGH"
}
