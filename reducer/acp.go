package reducer

import "ohwatch/model"

// ACPCall is one tool call run by an external ACP agent, as its latest
// event reports it: the second event of a call replaces the first.
type ACPCall struct {
	ToolCallID string
	Title      string
	Status     string
	IsError    bool
}

// acpNode is one ACP call and the calls before it; a call's later event
// pushes a node that shadows the earlier one.
type acpNode struct {
	call ACPCall
	prev *acpNode
}

// applyACP records an ACPToolCallEvent, replacing an earlier event of the
// same call; a failed call counts as an error once.
func (s *State) applyACP(i int, ev model.Event, b *model.ACPToolCall) {
	old, seen := s.acp.find(b.ToolCallID)
	call := ACPCall{ToolCallID: b.ToolCallID, Title: b.Title, Status: b.Status, IsError: b.IsError}
	ownAll(&call.ToolCallID, &call.Title, &call.Status)
	s.acp = &acpNode{call: call, prev: s.acp}
	if b.IsError && !(seen && old.IsError) {
		s.addError(i, ev.Kind, joinNonEmpty(b.Title, b.Status))
	}
}

func (n *acpNode) find(id string) (ACPCall, bool) {
	for ; n != nil; n = n.prev {
		if n.call.ToolCallID == id {
			return n.call, true
		}
	}
	return ACPCall{}, false
}

// ACPCalls returns the ACP tool calls in the order they started, each as
// its latest event reports it.
func (s State) ACPCalls() []ACPCall {
	var chain []ACPCall
	for n := s.acp; n != nil; n = n.prev {
		chain = append(chain, n.call)
	}
	var out []ACPCall
	pos := map[string]int{}
	for k := len(chain) - 1; k >= 0; k-- {
		c := chain[k]
		if p, ok := pos[c.ToolCallID]; ok {
			out[p] = c
			continue
		}
		pos[c.ToolCallID] = len(out)
		out = append(out, c)
	}
	return out
}
