package reducer

import (
	"strings"

	"ohwatch/model"
)

// The result of an action is one question with one answer, whichever
// screen asks it: the inspector's output section, the compare screen's
// outcome and its detail, the export. Each used to scan forward from the
// action on its own terms (how far, which ids), so two of them could
// name different results for one action. The log answers it instead,
// filed as each result is appended, with the rule the SDK uses for
// pending actions (ConversationState.get_unmatched_actions):
//
//   - an ObservationEvent or UserRejectObservation answers the action
//     whose event id is its action_id; one that carries no action_id
//     (hand-written, older tools) answers by tool_call_id;
//   - an AgentErrorEvent has no action_id and answers by tool_call_id;
//   - a tool call id names the newest action with it that has no result
//     yet (providers that number calls "call_0", "call_1"… reuse ids
//     across responses, and sometimes within one);
//   - an action's result is the first event that answers it; a second
//     answer is left unfiled.
//
// Looking a result up is then one map read, however far the result lies
// from its action. The index holds two entries per answered action and,
// while they wait, the tool call ids of unanswered actions.

// resultIndex files the results of actions as they are appended.
type resultIndex struct {
	// pair maps an action's index to its result's, and a result's to
	// its action's: the two never collide (an event is one or the other)
	// and the direction is told by which is larger.
	pair map[int32]int32
	// open is the unanswered actions by tool call id, the newest for an
	// id used twice; an entry is dropped when its action is answered.
	open map[string]int32
}

// actionKind is KindAction's position in model.Kinds, which the records
// of events not kept whole hold.
var actionKind = int16(model.KindIndex(model.KindAction))

// add files event j, whose record the store holds already.
func (x *resultIndex) add(s *store, j int, ev *model.Event) {
	var call, action string
	switch b := ev.Body.(type) {
	case *model.Action:
		if b.ToolCallID != "" {
			if x.open == nil {
				x.open = make(map[string]int32)
			}
			x.open[strings.Clone(b.ToolCallID)] = int32(j)
		}
		return
	case *model.Observation:
		call, action = b.ToolCallID, b.ActionID
	case *model.UserReject:
		call, action = b.ToolCallID, b.ActionID
	case *model.AgentError:
		call = b.ToolCallID
	default:
		return
	}
	a := -1
	if action != "" {
		if k, ok := s.ids.find(s, action); ok && k < j && isAction(s, k) {
			a = k
		}
	} else if k, ok := x.open[call]; ok && call != "" {
		a = int(k)
	}
	if a < 0 {
		return
	}
	if _, answered := x.pair[int32(a)]; answered {
		return
	}
	if x.pair == nil {
		x.pair = make(map[int32]int32)
	}
	x.pair[int32(a)], x.pair[int32(j)] = int32(j), int32(a)
	if k, ok := x.open[call]; ok && int(k) == a {
		delete(x.open, call)
	}
}

// isAction reports whether the store's event k is an action.
func isAction(s *store, k int) bool {
	r := &s.recs[k/recChunk][k%recChunk]
	if r.flags&flagWhole != 0 {
		_, ok := s.whole[r.block].Body.(*model.Action)
		return ok
	}
	return r.kind == actionKind
}

// ResultOf returns the index of the event that answered the action at
// index i (its observation, rejection or agent error); false when i is no
// action or nothing has answered it yet.
func (l *Log) ResultOf(i int) (int, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	r, ok := l.results.pair[int32(i)]
	if !ok || int(r) <= i {
		return 0, false
	}
	return int(r), true
}

// ActionOf returns the index of the action the result at index j
// answered: ResultOf read backwards.
func (l *Log) ActionOf(j int) (int, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	a, ok := l.results.pair[int32(j)]
	if !ok || int(a) >= j {
		return 0, false
	}
	return int(a), true
}
