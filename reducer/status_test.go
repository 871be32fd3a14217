package reducer

import (
	"reflect"
	"testing"

	"ohwatch/model"
)

func TestSnapshotIsAuthoritativeOverReplayedUpdates(t *testing.T) {
	sc := newScript()
	sc.snapshot(model.StatusRunning, nil) // e1: the subscribe-time snapshot
	sc.user()
	sc.status(model.StatusFinished) // e3: per-field, provisional
	s := sc.fold()
	if s.Status != model.StatusFinished || s.StatusSource != SourceStateUpdate || s.StatusConfirmed {
		t.Fatalf("per-field finished: got %s/%s/%v, want finished/state_update/provisional", s.Status, s.StatusSource, s.StatusConfirmed)
	}
	sc.snapshot(model.StatusFinished, nil) // e4: confirms
	s = sc.fold()
	if s.Status != model.StatusFinished || s.StatusSource != SourceFullState || !s.StatusConfirmed || s.StatusAt != 3 {
		t.Fatalf("snapshot finished: got %s/%s/%v at %d, want finished/full_state/confirmed at 3", s.Status, s.StatusSource, s.StatusConfirmed, s.StatusAt)
	}
	// A replayed historical per-field running, older than the snapshot,
	// arrives after it (resend_mode=all): it must not regress the status.
	old := sc.status(model.StatusRunning)
	old.Time = sc.at(2)
	sc.evs[len(sc.evs)-1] = old
	s = sc.fold()
	if s.Status != model.StatusFinished || !s.StatusConfirmed {
		t.Fatalf("replayed running regressed the snapshot: %s/%s/%v", s.Status, s.StatusSource, s.StatusConfirmed)
	}
	// A fresh per-field update (newer than the snapshot) is ordinary.
	sc.status(model.StatusRunning)
	s = sc.fold()
	if s.Status != model.StatusRunning || s.StatusSource != SourceStateUpdate {
		t.Fatalf("fresh running: %s/%s", s.Status, s.StatusSource)
	}
	want := []Transition{
		{Index: 0, Time: sc.at(1), From: "idle", To: "running", Source: SourceFullState},
		{Index: 2, Time: sc.at(3), From: "running", To: "finished", Source: SourceStateUpdate},
		{Index: 5, Time: sc.at(6), From: "finished", To: "running", Source: SourceStateUpdate},
	}
	if got := s.Transitions(); !reflect.DeepEqual(got, want) {
		t.Fatalf("transitions:\n got %+v\nwant %+v", got, want)
	}
	if got := s.LastTransitions(1); !reflect.DeepEqual(got, want[2:]) {
		t.Fatalf("LastTransitions(1) = %+v", got)
	}
}

func TestStopHookRevertIsAnOrdinaryTransition(t *testing.T) {
	sc := newScript()
	sc.user()
	sc.status(model.StatusRunning)
	sc.agentText("r1")
	sc.status(model.StatusFinished)
	sc.add("HookExecutionEvent", "hook", &model.Hook{HookEventType: "Stop", Success: true, Blocked: true, ExitCode: 2})
	sc.status(model.StatusRunning)
	s := sc.fold()
	var tos []string
	for _, tr := range s.Transitions() {
		tos = append(tos, tr.From+">"+tr.To+":"+string(tr.Source))
	}
	want := []string{"idle>running:inferred", "running>finished:state_update", "finished>running:state_update"}
	if !reflect.DeepEqual(tos, want) {
		t.Fatalf("transitions %v, want %v", tos, want)
	}
	if s.StatusConfirmed {
		t.Fatal("a per-field status is provisional")
	}
}

func TestInferenceDoesNotFightRealUpdates(t *testing.T) {
	sc := newScript()
	sc.status(model.StatusRunning)
	sc.user()
	sc.agentText("r1") // would infer finished without real updates
	sc.add("PauseEvent", "user", &model.Pause{})
	s := sc.fold()
	if s.Status != model.StatusRunning || s.StatusSource != SourceStateUpdate {
		t.Fatalf("content inference overrode a real update: %s/%s", s.Status, s.StatusSource)
	}
	// A ConversationErrorEvent is always right.
	sc.add("ConversationErrorEvent", "environment", &model.ConversationError{Code: "MaxIterationsReached", Detail: "Agent reached maximum iterations limit (3)."})
	s = sc.fold()
	if s.Status != model.StatusError || s.ErrorCount != 1 {
		t.Fatalf("conversation error: %s, %d errors", s.Status, s.ErrorCount)
	}
	if e := s.Errors(); len(e) != 1 || e[0].Index != 4 || e[0].Text != "MaxIterationsReached: Agent reached maximum iterations limit (3)." {
		t.Fatalf("errors %+v", e)
	}
}

func TestInferredStatus(t *testing.T) {
	tests := []struct {
		name  string
		build func(sc *script)
		want  string
	}{
		{"empty is idle", func(sc *script) {}, model.StatusIdle},
		{"user message runs", func(sc *script) { sc.user() }, model.StatusRunning},
		{"agent reply finishes", func(sc *script) { sc.user(); sc.agentText("r") }, model.StatusFinished},
		{"agent message with tool calls runs on", func(sc *script) {
			sc.user()
			sc.add("MessageEvent", "agent", &model.Message{Role: "assistant", HasToolCalls: true, LLMResponseID: "r"})
		}, model.StatusRunning},
		{"finish action finishes", func(sc *script) { sc.user(); sc.action("FinishAction", "r", "c", "UNKNOWN") }, model.StatusFinished},
		{"finish observation finishes", func(sc *script) {
			sc.user()
			a := sc.action("FinishAction", "r", "c", "UNKNOWN")
			sc.observe("FinishObservation", a)
		}, model.StatusFinished},
		{"pause", func(sc *script) { sc.user(); sc.add("PauseEvent", "user", &model.Pause{}) }, model.StatusPaused},
		{"interrupt", func(sc *script) { sc.user(); sc.add("InterruptEvent", "user", &model.Interrupt{}) }, model.StatusPaused},
		{"conversation error", func(sc *script) {
			sc.user()
			sc.add("ConversationErrorEvent", "environment", &model.ConversationError{Code: "LLMAuthenticationError"})
		}, model.StatusError},
		{"environment nudge resumes", func(sc *script) {
			sc.user()
			sc.agentText("r")
			sc.add("MessageEvent", "environment", &model.Message{Role: "user"})
		}, model.StatusRunning},
		{"high risk action waits under an unknown policy", func(sc *script) { sc.user(); sc.action("TerminalAction", "r", "c", "HIGH") }, model.StatusWaitingForConfirmation},
		{"low risk action runs under an unknown policy", func(sc *script) { sc.user(); sc.action("TerminalAction", "r", "c", "LOW") }, model.StatusRunning},
		{"approved action runs on", func(sc *script) {
			sc.user()
			a := sc.action("TerminalAction", "r", "c", "HIGH")
			sc.observe("TerminalObservation", a)
		}, model.StatusRunning},
		{"rejected action leaves idle", func(sc *script) {
			sc.user()
			a := sc.action("TerminalAction", "r", "c", "HIGH")
			sc.add("UserRejectObservation", "user", &model.UserReject{ActionID: a.ID, ToolCallID: "c", RejectionSource: "user"})
		}, model.StatusIdle},
		{"always confirm waits on any action", func(sc *script) {
			sc.add("ConversationStateUpdateEvent", "environment", &model.StateUpdate{Key: "confirmation_policy", ConfirmationPolicy: "AlwaysConfirm"})
			sc.user()
			sc.action("TerminalAction", "r", "c", "LOW")
		}, model.StatusWaitingForConfirmation},
		{"never confirm never waits", func(sc *script) {
			sc.add("ConversationStateUpdateEvent", "environment", &model.StateUpdate{Key: "confirmation_policy", ConfirmationPolicy: "NeverConfirm"})
			sc.user()
			sc.action("TerminalAction", "r", "c", "HIGH")
		}, model.StatusRunning},
		{"confirm risky waits on unknown risk", func(sc *script) {
			sc.add("ConversationStateUpdateEvent", "environment", &model.StateUpdate{Key: "confirmation_policy", ConfirmationPolicy: "ConfirmRisky"})
			sc.user()
			sc.action("TerminalAction", "r", "c", "UNKNOWN")
		}, model.StatusWaitingForConfirmation},
		{"think never waits", func(sc *script) {
			sc.add("ConversationStateUpdateEvent", "environment", &model.StateUpdate{Key: "confirmation_policy", ConfirmationPolicy: "AlwaysConfirm"})
			sc.user()
			sc.action("ThinkAction", "r", "c", "HIGH")
		}, model.StatusRunning},
		{"all eight values pass through updates", func(sc *script) {
			for _, v := range []string{"idle", "running", "paused", "waiting_for_confirmation", "finished", "error", "stuck", "deleting"} {
				sc.status(v)
			}
		}, model.StatusDeleting},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := newScript()
			tt.build(sc)
			if got := sc.fold().Status; got != tt.want {
				t.Fatalf("status %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBaseStateAppliesAtTheEndOfTheLog(t *testing.T) {
	sc := newScript()
	sc.user()
	sc.status(model.StatusRunning)
	sc.agentText("r1")
	sc.status(model.StatusFinished)
	base := &model.BaseState{ExecutionStatus: model.StatusFinished, ConfirmationPolicy: "NeverConfirm"}

	t.Run("by event count", func(t *testing.T) {
		s := Initial(base, len(sc.evs))
		for k, ev := range sc.evs {
			s = Apply(s, ev)
			if k < len(sc.evs)-1 && s.StatusSource == SourceBaseState {
				t.Fatalf("base applied early, at %d", k)
			}
		}
		if s.StatusSource != SourceBaseState || !s.StatusConfirmed || s.Status != model.StatusFinished || s.StatusAt != 3 {
			t.Fatalf("got %s/%s/%v at %d", s.Status, s.StatusSource, s.StatusConfirmed, s.StatusAt)
		}
		if s.ConfirmationPolicy != "NeverConfirm" {
			t.Fatalf("policy %q", s.ConfirmationPolicy)
		}
	})
	t.Run("by leaf id when the event count is unknown", func(t *testing.T) {
		b := *base
		b.LeafEventID = sc.evs[2].ID
		s := Initial(&b, 0)
		s = Fold(s, sc.evs[:3]...)
		if s.StatusSource != SourceBaseState || s.StatusAt != 2 {
			t.Fatalf("at the leaf: %s/%s at %d", s.Status, s.StatusSource, s.StatusAt)
		}
		s = Apply(s, sc.evs[3])
		if s.StatusSource != SourceStateUpdate {
			t.Fatalf("after the leaf: %s", s.StatusSource)
		}
	})
	t.Run("empty log", func(t *testing.T) {
		s := Initial(&model.BaseState{ExecutionStatus: model.StatusPaused}, 0)
		if s.Status != model.StatusPaused || s.StatusSource != SourceBaseState || s.StatusAt != -1 || s.StatusConfirmed {
			t.Fatalf("got %s/%s at %d confirmed=%v", s.Status, s.StatusSource, s.StatusAt, s.StatusConfirmed)
		}
	})
}

// TestLateSnapshotDoesNotStopARun: a socket subscribes before it builds
// its snapshot, so a run's first frames can overtake it: "running" (and
// the run's events) arrive, then the snapshot built before them, saying
// idle. It is older than the status it would replace and must not stand
// over the run while its events keep arriving (seen in use: the header
// said idle for 45 s and the controls refused to pause).
func TestLateSnapshotDoesNotStopARun(t *testing.T) {
	sc := newScript()
	sc.user()
	sc.status(model.StatusRunning) // at(2)
	act := sc.action("TerminalAction", "r1", "c1", "LOW")
	late := sc.snapshot(model.StatusIdle, nil)
	late.Time = sc.at(1) // built before the run started
	sc.evs[len(sc.evs)-1] = late
	sc.observe("TerminalObservation", act)
	s := sc.fold()
	if s.Status != model.StatusRunning {
		t.Fatalf("a snapshot older than the run's status took over: %s (%s)", s.Status, s.StatusSource)
	}
	// A snapshot newer than the status is authoritative as ever.
	sc.snapshot(model.StatusPaused, nil)
	if s = sc.fold(); s.Status != model.StatusPaused || s.StatusSource != SourceFullState {
		t.Fatalf("a fresh snapshot: %s/%s", s.Status, s.StatusSource)
	}
	// The same through the log, which folds from checkpoints.
	log := NewLog(nil, 0)
	log.Append(sc.evs[:5]...)
	if st := log.Latest(); st.Status != model.StatusRunning {
		t.Fatalf("log: %s", st.Status)
	}
}
