package reducer

import (
	"strings"

	"ohwatch/internal/arena"
	"ohwatch/model"
)

// Every string a State keeps of an event is a copy, made where it is
// kept. A reader hands the log events decoded from its own buffers (a
// loader's 64 KiB segments), and the States kept for good (the newest, a
// checkpoint every 32 events) would otherwise keep those alive: a loaded
// conversation would hold its JSON twice. Copying the few strings a State
// keeps costs less than copying every string of every event before it is
// folded, which the log did (Event.Detached: a third of appending an
// event). TestStatesKeepNothingOfTheCallersBuffers holds every State to
// it.

// statuses are the values every State repeats, kept as the constants.
var statuses = [...]string{
	model.StatusIdle, model.StatusRunning, model.StatusPaused, model.StatusWaitingForConfirmation,
	model.StatusFinished, model.StatusError, model.StatusStuck,
}

// own returns a copy of s, or the constant it equals when it is a status.
func own(s string) string {
	for _, c := range statuses {
		if s == c {
			return c
		}
	}
	return strings.Clone(s)
}

// ownAll replaces the strings ss point to by copies, all in one
// allocation.
func ownAll(ss ...*string) {
	n := 0
	for _, s := range ss {
		n += len(*s)
	}
	if n == 0 {
		return
	}
	block := make([]byte, 0, n)
	for _, s := range ss {
		if len(*s) == 0 {
			continue
		}
		at := len(block)
		block = append(block, *s...)
		*s = arena.String(block[at : at+len(*s)])
	}
}
