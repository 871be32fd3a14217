package compare

import (
	"ohwatch/model"
	"ohwatch/reducer"
)

// Kind is what a step is.
type Kind uint8

// The kinds of step.
const (
	UserMessage Kind = iota + 1
	Action
	AgentMessage
)

// String names the kind as the report spells it.
func (k Kind) String() string {
	switch k {
	case UserMessage:
		return "user"
	case Action:
		return "action"
	case AgentMessage:
		return "agent"
	}
	return "unknown"
}

// Outcome is how an action ended, as far as its side knows yet.
type Outcome uint8

// The outcomes of an action; messages are always Pending.
const (
	Pending Outcome = iota
	OK
	Failed
	Rejected
)

// String names the outcome.
func (o Outcome) String() string {
	switch o {
	case OK:
		return "ok"
	case Failed:
		return "failed"
	case Rejected:
		return "rejected"
	}
	return "pending"
}

// Step is one step of a run.
type Step struct {
	// Event is the step's event index in its side's log.
	Event int
	Kind  Kind
	// Tool is an action's tool name ("" for a message).
	Tool string
	// Args is the hash of the action's normalised arguments, or of the
	// message's normalised text.
	Args    uint64
	Outcome Outcome
	// ID is the event id: steps with the same id on both sides are the
	// same event (a fork's copied prefix).
	ID string
}

// class is what two steps must share to be a changed pair: their kind and
// tool.
func (s Step) class() uint64 {
	h := uint64(fnvOffset)
	h = (h ^ uint64(s.Kind)) * fnvPrime
	for i := 0; i < len(s.Tool); i++ {
		h = (h ^ uint64(s.Tool[i])) * fnvPrime
	}
	return h
}

// key is what two steps must share to be the same: kind, tool, arguments
// and outcome.
func (s Step) key() uint64 {
	return mix(s.class() ^ mix(s.Args+uint64(s.Outcome)))
}

// mix is splitmix64's finaliser: it spreads the bits of a combined hash.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Steps reads the steps of one log as it grows: each event once, in file
// order, whatever path is compared later. It is not safe for concurrent
// use; the log it reads is.
type Steps struct {
	log   *reducer.Log
	seen  int
	steps []Step
	// at is each event's position in steps, -1 for an event that is no
	// step.
	at []int32
	h  *hasher
}

// NewSteps returns the steps reader of log; call Update to read.
func NewSteps(log *reducer.Log) *Steps {
	return &Steps{log: log, h: newHasher()}
}

// Log is the log read.
func (s *Steps) Log() *reducer.Log { return s.log }

// Update reads the events appended since the last call. It reports whether
// any step was added or changed.
func (s *Steps) Update() bool {
	n := s.log.Len()
	changed := false
	for i := s.seen; i < n; i++ {
		ev := s.log.Event(i)
		pos := int32(-1)
		if st, ok := s.stepOf(i, &ev); ok {
			pos = int32(len(s.steps))
			s.steps = append(s.steps, st)
			changed = true
		} else if s.settle(i, &ev) {
			changed = true
		}
		s.at = append(s.at, pos)
	}
	s.seen = n
	return changed
}

// stepOf makes the step of event i, when it is one.
func (s *Steps) stepOf(i int, ev *model.Event) (Step, bool) {
	switch b := ev.Body.(type) {
	case *model.Action:
		args := member(ev.Raw, "action")
		if args == nil {
			args = member(ev.Raw, "tool_call")
		}
		return Step{Event: i, Kind: Action, Tool: b.ToolName, Args: s.hash(args), ID: ev.ID}, true
	case *model.Message:
		var k Kind
		switch b.Role {
		case "user":
			k = UserMessage
		case "assistant":
			k = AgentMessage
		default:
			return Step{}, false
		}
		return Step{Event: i, Kind: k, Args: s.hash(member(member(ev.Raw, "llm_message"), "content")), ID: ev.ID}, true
	}
	return Step{}, false
}

// hash is the hash of the normalised value v.
func (s *Steps) hash(v []byte) uint64 {
	s.h.reset()
	s.h.value(v)
	return s.h.h
}

// settle sets the outcome of the action result i answers (the log's
// reducer.Log.ActionOf, the one rule every screen follows); it reports
// whether it was one.
func (s *Steps) settle(i int, ev *model.Event) bool {
	var out Outcome
	switch b := ev.Body.(type) {
	case *model.Observation:
		out = OK
		if b.IsError || (b.ExitCode != nil && *b.ExitCode != 0 && *b.ExitCode != -1) {
			out = Failed
		}
	case *model.UserReject:
		out = Rejected
	case *model.AgentError:
		out = Failed
	default:
		return false
	}
	a, ok := s.log.ActionOf(i)
	if !ok || a >= len(s.at) || s.at[a] < 0 {
		return false
	}
	s.steps[s.at[a]].Outcome = out
	return true
}

// Along returns a copy of the steps on path p, in order.
func (s *Steps) Along(p reducer.Path) []Step {
	if len(p) == 1 && p[0].From == 0 && p[0].To == s.seen-1 {
		return append([]Step(nil), s.steps...)
	}
	var out []Step
	for _, sp := range p {
		for i := sp.From; i <= sp.To && i < len(s.at); i++ {
			if k := s.at[i]; k >= 0 {
				out = append(out, s.steps[k])
			}
		}
	}
	return out
}
