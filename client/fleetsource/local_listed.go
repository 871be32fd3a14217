package fleetsource

import (
	"time"

	"ohwatch/client/files"
	"ohwatch/model"
	"ohwatch/reducer"
)

// listTail is how many of a conversation's last event files are read to
// decide whether it can still change when base_state.json does not say
// (as `ls` reads them). A conversation no longer than that is read whole:
// that costs what its tail would, and gives its steps and tokens too.
const listTail = 256

// finalStatus reports whether a conversation at rest with that status has
// nothing more to say until it grows: it ended, by the agent or an error.
// A waiting, paused, idle or running one may be resumed or still be
// written, so it is read and followed.
func finalStatus(status string) bool {
	switch status {
	case model.StatusFinished, model.StatusError, model.StatusStuck:
		return true
	}
	return false
}

// listSettled shows a long conversation at rest from its summary alone
// (PhaseListed, as a server's settled listing), when that summary settles
// a final status: base_state.json's, or else its last event files'
// (reducer.TailVerdict). Nothing else of it is read: a finished
// conversation of half a million events costs its listing and its tail.
// It rests with nothing handed out, so once it grows it is read whole and
// followed (grown). It reports false, reading nothing more, for any
// conversation that may still change.
func (l *local) listSettled(c *localConv, stamp time.Time, emit func(...model.FleetUpdate)) bool {
	l.mu.Lock()
	events, meta := c.events, *c.meta
	meta.Stats = c.stats
	l.mu.Unlock()
	if events <= listTail {
		return false
	}
	if !finalStatus(meta.Status) {
		tail, _ := files.Tail(c.dir, listTail)
		v, ok := reducer.TailVerdict(tail)
		if !ok || !finalStatus(v.Status) {
			return false
		}
		meta.Status, meta.BaseStatus, meta.StatusSource = v.Status, false, string(v.Source)
		if meta.Stats == nil {
			meta.Stats = reducer.TailStats(tail)
		}
	}
	l.mu.Lock()
	c.meta = &meta
	l.mu.Unlock()
	l.rest(c, 0, stamp)
	emit(model.FleetUpdate{Ref: c.ref, Meta: &meta, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseListed}}})
	return true
}
