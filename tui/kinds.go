package tui

import (
	"ohwatch/model"
)

// The short kinds shown in the list's kind column and offered by the kind
// filter, in the order the filter lists them.
const (
	kindMessage   = "Msg"
	kindAction    = "Action"
	kindObs       = "Obs"
	kindReject    = "Reject"
	kindError     = "Error"
	kindSystem    = "System"
	kindState     = "State"
	kindCondense  = "Condense"
	kindHook      = "Hook"
	kindACP       = "ACP"
	kindPause     = "Pause"
	kindLLMLog    = "LLMLog"
	kindDelta     = "Delta"
	kindToken     = "Token"
	kindUnknown   = "Unknown"
	kindColumnLen = 8
)

// allKinds returns every short kind, in the kind filter's order.
func allKinds() []string {
	return []string{
		kindMessage, kindAction, kindObs, kindReject, kindError, kindSystem, kindState,
		kindCondense, kindHook, kindACP, kindPause, kindLLMLog, kindDelta, kindToken, kindUnknown,
	}
}

// shortKind names an event's kind in a few letters for the kind column.
func shortKind(ev *model.Event) string {
	switch ev.Body.(type) {
	case *model.Message:
		return kindMessage
	case *model.Action:
		return kindAction
	case *model.Observation:
		return kindObs
	case *model.UserReject:
		return kindReject
	case *model.AgentError, *model.ConversationError, *model.ServerError:
		return kindError
	case *model.SystemPrompt:
		return kindSystem
	case *model.StateUpdate:
		return kindState
	case *model.Condensation, *model.CondensationRequest, *model.CondensationSummary:
		return kindCondense
	case *model.Hook:
		return kindHook
	case *model.ACPToolCall:
		return kindACP
	case *model.Pause, *model.Interrupt:
		return kindPause
	case *model.LLMCompletionLog:
		return kindLLMLog
	case *model.StreamingDelta:
		return kindDelta
	case *model.TokenEvent:
		return kindToken
	}
	return kindUnknown
}

// isNoise reports whether a short kind is structural noise, hidden by the
// default filter: state updates, streaming deltas, token ids, LLM logs.
func isNoise(kind string) bool {
	switch kind {
	case kindState, kindDelta, kindToken, kindLLMLog:
		return true
	}
	return false
}

// isError reports whether an event is an error the list highlights: an
// agent, conversation or server error, a failed observation or hook, an
// ACP call that failed, a kind that did not decode.
func isError(ev *model.Event) bool {
	switch b := ev.Body.(type) {
	case *model.AgentError, *model.ConversationError, *model.ServerError:
		return true
	case *model.Observation:
		return b.IsError
	case *model.Hook:
		return !b.Success || b.Blocked
	case *model.ACPToolCall:
		return b.IsError
	case *model.Unknown:
		return b.Reason != ""
	}
	return false
}

// kindFilter decides which events the list shows. The noise filter and the
// kind picker combine: an event is shown when neither hides it.
type kindFilter struct {
	// hideNoise hides structural noise (on by default; F toggles it).
	hideNoise bool
	// picked are the kinds selected in the picker; empty means all.
	picked map[string]bool
	// invert shows the kinds NOT picked instead.
	invert bool
}

// defaultFilter hides noise and picks nothing.
func defaultFilter() kindFilter {
	return kindFilter{hideNoise: true, picked: map[string]bool{}}
}

// shows reports whether the filter lets a kind through.
func (f kindFilter) shows(kind string) bool {
	if f.hideNoise && isNoise(kind) {
		return false
	}
	if len(f.picked) == 0 {
		return true
	}
	return f.picked[kind] != f.invert
}

// active reports whether the picker restricts anything.
func (f kindFilter) active() bool { return len(f.picked) > 0 }

// toggled returns a copy with kind picked or unpicked; the map is copied so
// an older Model value never sees the change.
func (f kindFilter) toggled(kind string) kindFilter {
	picked := make(map[string]bool, len(f.picked)+1)
	for k, v := range f.picked {
		picked[k] = v
	}
	if picked[kind] {
		delete(picked, kind)
	} else {
		picked[kind] = true
	}
	f.picked = picked
	return f
}

// label describes the filter for the list's title: "noise hidden",
// "kinds: Action,Obs", "not: Msg".
func (f kindFilter) label() string {
	s := ""
	if f.hideNoise {
		s = "noise hidden"
	}
	if f.active() {
		if s != "" {
			s += ", "
		}
		if f.invert {
			s += "not "
		}
		first := true
		for _, k := range allKinds() {
			if f.picked[k] {
				if !first {
					s += ","
				}
				s += k
				first = false
			}
		}
	}
	return s
}
