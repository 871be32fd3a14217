package files

import (
	"errors"
	"fmt"
	"io"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// MaxEventBytes is the largest event read: a file or a JSONL line over it
// is not read whole (a file that keeps growing, a sparse file of
// gigabytes) but kept as an UnreadableEvent placeholder, as a WebSocket
// frame over the limit is. Real events with screenshots stay far below.
const MaxEventBytes = 64 << 20

// MaxBaseStateBytes bounds what of a base_state.json is held at once while
// it is read. It is not an event and has no size limit: nearly all of a
// long conversation's is the stats' per-call lists (166 MB at a million
// events, 304,079 LLM calls), which are streamed one call at a time
// (model.ReadBaseState); this bounds the rest of the document (status,
// title, accumulated usage, the agent's settings: tens of kilobytes in
// real ones) and each call's entry.
const MaxBaseStateBytes = 8 << 20

// oversizeError is a file over its limit (MaxEventBytes for an event):
// only its head was read, to name the event in its placeholder.
type oversizeError struct {
	head  []byte
	size  int64
	limit int64
}

func (e *oversizeError) Error() string {
	return fmt.Sprintf("%s, over the %s limit for one event", model.ByteSize(e.size), model.ByteSize(e.limit))
}

// readHead reads the head of a file over limit for its placeholder.
func readHead(r io.Reader, size, limit int64) error {
	head := make([]byte, model.HeadScan)
	n, _ := io.ReadFull(r, head)
	return &oversizeError{head: head[:n], size: size, limit: limit}
}

// placeholderFor turns a read error into the event that stands in for an
// oversize file, with its warning; ok is false for any other error.
func placeholderFor(where string, err error) (model.Event, string, bool) {
	var oe *oversizeError
	if !errors.As(err, &oe) {
		return model.Event{}, "", false
	}
	ev, _ := model.UnreadableEvent(oe.head, MaxEventBytes)
	return ev, sanitize.Line(where + ": not read: " + oe.Error()), true
}
