package reducer

import "runtime/debug"

// settleFrom is the raw size past which Settle gives memory back.
const settleFrom = 128 << 20

// Settle is called once a load into the log is over (a recording read to
// its end). Reading it needed the reader's segments and every event
// decoded on the way: garbage the runtime keeps as heap room until its
// next collection, which may not come for minutes in a viewer at rest.
// For a million events that room was a fifth of the JSON's size on top of
// what the log keeps. On a big log Settle collects once and gives the
// free memory back to the system; the log holds its events off the heap
// and few pointers, so the collection is short. It blocks while it runs:
// call it off the UI's goroutine.
func (l *Log) Settle() {
	if l.Large() {
		debug.FreeOSMemory()
	}
}

// Large reports whether the log is big enough for Settle to do anything.
func (l *Log) Large() bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.st.stored >= settleFrom
}
