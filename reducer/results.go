package reducer

import (
	"hash/maphash"

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
//     (written by hand) answers by tool_call_id;
//   - an AgentErrorEvent has no action_id and answers by tool_call_id;
//   - a tool call id names the newest action with it that has no result
//     yet (providers that number calls "call_0", "call_1"… reuse ids
//     across responses, and sometimes within one);
//   - an action's result is the first event that answers it; a second
//     answer is left unfiled.
//
// Events are matched in file order, whatever branch of a conversation's
// tree they are on: a result names its action by id, and a branch's
// result cannot answer another branch's action by action_id. Looking a
// result up is then one read, however far the result lies from its
// action.

// resultIndex files the results of actions as they are appended.
type resultIndex struct {
	// partner is, by event, in chunks of recChunk, the index + 1 of the
	// result an action got or of the action a result answered (0: none):
	// 4 bytes an event and no hashing, less than a map of the pairs
	// (two entries for each answered action, and in a generated log 5
	// events in 8 are an action or its result).
	partner [][]int32
	// open is the unanswered actions by the hash of their tool call id,
	// the newest for an id used twice; an entry is dropped when its action
	// is answered. Hashes, not copies of the ids: appending an action
	// allocates nothing, and two ids of one log colliding in 64 bits of
	// maphash is not a case to plan for.
	open map[uint64]int32
	seed maphash.Seed
}

// of is event i's partner, -1 for none.
func (x *resultIndex) of(i int) int {
	if i < 0 || i/recChunk >= len(x.partner) {
		return -1
	}
	return int(x.partner[i/recChunk][i%recChunk]) - 1
}

// pairUp files result j as action a's.
func (x *resultIndex) pairUp(a, j int) {
	x.partner[a/recChunk][a%recChunk] = int32(j + 1)
	x.partner[j/recChunk][j%recChunk] = int32(a + 1)
}

// callKey is the key of tool call id call in open.
func (x *resultIndex) callKey(call string) uint64 {
	if x.open == nil {
		x.open, x.seed = make(map[uint64]int32), maphash.MakeSeed()
	}
	return maphash.String(x.seed, call)
}

// actionKind is KindAction's position in model.Kinds, which the records
// of events not kept whole hold.
var actionKind = int16(model.KindIndex(model.KindAction))

// add files event j, whose record the store holds already.
func (x *resultIndex) add(s *store, j int, ev *model.Event) {
	if j/recChunk >= len(x.partner) {
		x.partner = append(x.partner, make([]int32, recChunk))
	}
	var call, action string
	switch b := ev.Body.(type) {
	case *model.Action:
		if b.ToolCallID != "" {
			key := x.callKey(b.ToolCallID) // makes open: not in one statement
			x.open[key] = int32(j)
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
	a, key := -1, uint64(0)
	if call != "" {
		key = x.callKey(call)
	}
	if action != "" {
		if k, ok := s.ids.find(s, action); ok && k < j && isAction(s, k) {
			a = k
		}
	} else if k, ok := x.open[key]; ok && call != "" {
		a = int(k)
	}
	if a < 0 {
		return
	}
	if x.of(a) >= 0 {
		return // answered already: the first answer is its result
	}
	x.pairUp(a, j)
	if k, ok := x.open[key]; ok && call != "" && int(k) == a {
		delete(x.open, key)
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
	if r := l.results.of(i); r > i {
		return r, true
	}
	return 0, false
}

// ActionOf returns the index of the action the result at index j
// answered: ResultOf read backwards.
func (l *Log) ActionOf(j int) (int, bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if a := l.results.of(j); a >= 0 && a < j {
		return a, true
	}
	return 0, false
}
