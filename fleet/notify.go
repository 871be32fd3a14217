package fleet

import (
	"time"

	"ohwatch/model"
)

// Notification limits: a status that flaps must not ring the terminal
// hundreds of times. A conversation rings at most once per
// NotifyPerConversation, the fleet at most once per NotifyOverall; what the
// overall limit holds back rings once it allows, as one notification.
const (
	NotifyPerConversation = 10 * time.Second
	NotifyOverall         = time.Second
)

// Notifier decides which raised attentions ring, and gathers those held
// back. It is not safe for concurrent use: the table's Update owns it.
type Notifier struct {
	last    map[model.ConversationRef]time.Time // when each conversation last rang
	lastAny time.Time
	held    []Change // raised while the fleet was quiet-limited, one per conversation
}

// Notice is one notification: the first conversation that needs the
// person and how many more do.
type Notice struct {
	First Change
	More  int
}

// Raise takes the changes of one slice at time now and returns the
// notification to send now, if any. A conversation that rang within
// NotifyPerConversation is not rung again; when the fleet rang within
// NotifyOverall, the changes are held for Flush.
func (n *Notifier) Raise(now time.Time, changes []Change) (Notice, bool) {
	if n.last == nil {
		n.last = map[model.ConversationRef]time.Time{}
	}
	for _, c := range changes {
		if c.Raised == NoAttention {
			continue
		}
		if t, ok := n.last[c.Ref]; ok && now.Sub(t) < NotifyPerConversation {
			continue
		}
		n.hold(c)
	}
	return n.Flush(now)
}

// hold keeps c for the next notification, replacing an older change of
// the same conversation.
func (n *Notifier) hold(c Change) {
	for i := range n.held {
		if n.held[i].Ref == c.Ref {
			n.held[i] = c
			return
		}
	}
	n.held = append(n.held, c)
}

// Flush returns the notification of what was held back, once the overall
// limit allows one at now.
func (n *Notifier) Flush(now time.Time) (Notice, bool) {
	if len(n.held) == 0 || !n.lastAny.IsZero() && now.Sub(n.lastAny) < NotifyOverall {
		return Notice{}, false
	}
	out := Notice{First: n.held[0], More: len(n.held) - 1}
	for _, c := range n.held {
		n.last[c.Ref] = now
	}
	n.held = n.held[:0]
	n.lastAny = now
	// Forget what can ring again anyway: the map stays as small as the
	// conversations that rang within the limit.
	for ref, t := range n.last {
		if now.Sub(t) >= NotifyPerConversation {
			delete(n.last, ref)
		}
	}
	return out, true
}

// Wait is how long after now Flush has something to send; ok is false
// when nothing is held.
func (n *Notifier) Wait(now time.Time) (d time.Duration, ok bool) {
	if len(n.held) == 0 {
		return 0, false
	}
	return max(0, NotifyOverall-now.Sub(n.lastAny)), true
}
