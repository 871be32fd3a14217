package reducer

import (
	"time"

	"ohwatch/model"
)

// State is the derived state of a conversation as of one event. It is a
// value: Apply returns a new State and never changes the one it was given.
// Collections that grow with the log (transitions, errors, forgotten ids)
// are persistent linked nodes shared between successive States, so applying
// an event costs the same at the millionth event as at the first.
type State struct {
	// Applied is the number of events applied: the events on the path to
	// this one, which on a linear log is the next event's index.
	Applied int
	// Status is the execution status (protocol §3.1), "idle" at the start.
	Status string
	// StatusSource says where Status came from.
	StatusSource StatusSource
	// StatusConfirmed is true when a full_state snapshot or base_state.json
	// said so; a per-field update or an inference is provisional.
	StatusConfirmed bool
	// StatusAt is the index of the event that last set Status, -1 for none.
	StatusAt int
	// Iteration is the number of LLM steps since the last user message.
	Iteration int
	// Steps is the number of LLM steps in the whole conversation.
	Steps int
	// Metrics is the token and cost usage as of this event.
	Metrics Metrics
	// MetricsAt is the index of the event that last changed Metrics, -1.
	MetricsAt int
	// Tasks is the task-tracker checklist.
	Tasks Tasks
	// Pending are the actions with no result yet, oldest first. The slice
	// is shared between States: read it, never write to it.
	Pending []PendingAction
	// ErrorCount is the number of errors so far (see Errors).
	ErrorCount int
	// ConfirmationPolicy is the confirmation policy kind ("NeverConfirm",
	// "AlwaysConfirm", "ConfirmRisky"), "" while unknown.
	ConfirmationPolicy string
	// Question is the open ask_user request, nil when none is open.
	Question *Question
	// WarningCount is the number of warnings so far (see Warnings).
	WarningCount int

	warnings     *warnNode
	ctx          *context
	transitions  *transitionNode
	errors       *errorNode
	kinds        kindCounts
	otherKinds   kindTable
	unknownKinds kindTable
	forgotten    *forgetNode
	history      int
	sawStatus    bool      // a real execution_status update has been seen
	snapshotAt   time.Time // time of the latest full_state snapshot
	statusTime   time.Time // time of the event that last set Status
	recentIDs    [responseWindow]string
	recentNext   int
	statsSeen    bool // a stats update has been applied
	usageSeen    bool // a stats update named at least one usage
	attributed   int  // calls attributed from the base by time
	tentativeID  string
	acp          *acpNode
}

// Initial is the State before the first event. base is base_state.json (or
// a REST ConversationInfo), which describes the END of the log; it is
// applied when the event at index baseEventCount-1 (the last one on disk
// when the base was read) is applied or, when the count is unknown (0), when
// the event base.LeafEventID is applied. With a base, no count and no leaf
// id, the base applies at once.
func Initial(base *model.BaseState, baseEventCount int) State {
	s := State{
		Status:    model.StatusIdle,
		StatusAt:  -1,
		MetricsAt: -1,
		Tasks:     Tasks{ChangedAt: -1, TentativeAt: -1},
		// Nothing spent yet: $0 is a known cost.
		Metrics: Metrics{Combined: Usage{CostKnown: true}},
		ctx:     newContext(base, baseEventCount),
	}
	if base != nil {
		s.ConfirmationPolicy = base.ConfirmationPolicy
		if base.LeafEventID == "" && baseEventCount <= 0 {
			s.applyBase(-1, time.Time{})
		}
	}
	return s
}

// Apply returns the State after ev. It is pure: no clock, no I/O, no
// randomness, and s is left unchanged. ev is taken to be event s.Applied of
// the log, as it is when a log is linear.
func Apply(s State, ev model.Event) State { return applyAt(s, s.Applied, ev) }

// ApplyAt is Apply for event index i of its log, for a fold along a path
// of a branched log, whose positions are not the indices that every
// provenance (StatusAt, Transition.Index, …) names.
func ApplyAt(s State, i int, ev model.Event) State { return applyAt(s, i, ev) }

// applyAt is Apply for event index i.
func applyAt(s State, i int, ev model.Event) State {
	s.apply(i, &ev)
	return s
}

// apply is applyAt changing s in place, for the folds that own their
// State (a log's newest, a seek's): a State is 640 bytes, and copying it
// in and out for every event was a tenth of appending one.
func (s *State) apply(i int, evp *model.Event) {
	ev := *evp
	s.Applied++
	s.kinds, s.otherKinds = countKind(s.kinds, s.otherKinds, ev.Kind)
	switch b := ev.Body.(type) {
	case *model.Message:
		s.applyMessage(i, ev, b)
	case *model.Action:
		s.applyAction(i, ev, b)
	case *model.Observation:
		s.applyObservation(i, ev, b)
	case *model.UserReject:
		s.applyReject(i, ev, b)
	case *model.AgentError:
		s.applyAgentError(i, ev, b)
	case *model.StateUpdate:
		s.applyStateUpdate(i, ev, b)
	case *model.ConversationError:
		s.addError(i, ev.Kind, joinNonEmpty(b.Code, b.Detail))
		s.setStatus(i, ev.Time, model.StatusError, SourceInferred, false)
	case *model.Condensation:
		s.applyCondensation(b)
		s.countResponse(i, ev, b.LLMResponseID, false)
	case *model.CondensationSummary:
		s.history++
	case *model.SystemPrompt:
		s.history++
	case *model.Pause, *model.Interrupt:
		s.infer(i, ev.Time, model.StatusPaused)
	case *model.ACPToolCall:
		s.applyACP(i, ev, b)
	case *model.AskUserRequest:
		s.applyAskRequest(i, ev, b)
	case *model.AskUserResponse:
		s.applyAskResponse(i, ev, b)
	case *model.SecurityAnalysis:
		s.applyAnalysis(b)
	case *model.Warning:
		s.addWarning(i, ev.Kind, b.Message)
	case *model.IterationLimit:
		s.addWarning(i, ev.Kind, ev.Summary)
	case *model.Unknown:
		s.unknownKinds = s.unknownKinds.add(ev.Kind)
	case *model.Hook, *model.ServerError:
		if Failed(evp) {
			s.addError(i, ev.Kind, ev.Summary)
		}
	}
	s.attributeByTime(i, ev.Time)
	if s.ctx.baseAt(i, ev.ID) {
		s.applyBase(i, ev.Time)
	}
}

// Fold applies evs in order to s; a convenience for tests and loaders.
func Fold(s State, evs ...model.Event) State {
	for _, ev := range evs {
		s = Apply(s, ev)
	}
	return s
}

// Transitions returns every status transition, oldest first.
func (s State) Transitions() []Transition { return s.transitions.slice(-1) }

// LastTransitions returns the last n transitions, oldest first.
func (s State) LastTransitions(n int) []Transition { return s.transitions.slice(n) }

// Errors returns every error so far, oldest first.
func (s State) Errors() []ErrorRef { return s.errors.slice() }

// Kinds returns the number of events per kind.
func (s State) Kinds() map[string]int { return s.kinds.toMap(s.otherKinds) }

// UnknownKinds returns the number of events per kind whose body is
// unknown (a kind not recognised, or fields that do not fit it).
func (s State) UnknownKinds() map[string]int { return s.unknownKinds.toMap(nil) }

// Forgotten reports whether a Condensation has hidden the event id from the
// LLM's view. The event stays in the log.
func (s State) Forgotten(id string) bool { return s.forgotten.has(id) }

// HistoryLen is the number of LLM-convertible events still in the LLM's
// view (those applied minus those forgotten by condensations).
func (s State) HistoryLen() int {
	n := s.history - s.forgotten.count()
	if n < 0 {
		return 0
	}
	return n
}

// joinNonEmpty joins two strings with ": ", skipping empty ones.
func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + ": " + b
}
