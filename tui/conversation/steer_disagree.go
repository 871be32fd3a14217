package conversation

import (
	"ohwatch/model"
	"ohwatch/reducer"
)

// When the status and the events disagree (the header says idle while the
// agent's actions keep arriving: a stale status), a control that the
// status alone would refuse is sent anyway, and the footer says what the
// server answered: the server knows, the header may not.

// maxDisagreeScan bounds how many of the newest events a control key reads
// to see whether the agent acted after the status was set.
const maxDisagreeScan = 64

// activityAfterStatus reports whether the agent's own events (an action,
// an observation, a rejection, an agent message or error) came after the
// event that set st's status: the run visibly goes on whatever it says.
func (m *Conversation) activityAfterStatus(st reducer.State) bool {
	n := m.Log.Len()
	for i := n - 1; i > st.StatusAt && i >= n-maxDisagreeScan; i-- {
		ev := m.Log.Event(i)
		switch ev.Kind {
		case model.KindAction, model.KindObservation, model.KindUserReject, model.KindAgentError:
			return true
		case model.KindMessage:
			if ev.Source == "agent" {
				return true
			}
		}
	}
	return false
}

// despiteStatus is, for a pause or an interrupt the status alone would
// refuse, the status it is sent despite when the events disagree with it;
// "" otherwise.
func (m *Conversation) despiteStatus(what Control) string {
	if what != CtlPause && what != CtlInterrupt {
		return ""
	}
	st := m.Log.Latest()
	if st.Status == model.StatusRunning || st.Status == model.StatusWaitingForConfirmation {
		return ""
	}
	if !m.activityAfterStatus(st) {
		return ""
	}
	return model.StatusWords(st.Status)
}
