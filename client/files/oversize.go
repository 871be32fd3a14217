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

// MaxBaseStateBytes is the largest base_state.json read. It is not an
// event: it carries the stats' per-call lists, 166 MB at a million events
// (304,079 LLM calls), so it has a bound of its own, a zip entry's.
const MaxBaseStateBytes = maxZipEntry

// oversizeError is a file over its limit (MaxEventBytes for an event):
// only its head was read, to name the event in its placeholder.
type oversizeError struct {
	head  []byte
	size  int64
	limit int64
}

func (e *oversizeError) Error() string {
	what := "one event"
	if e.limit != MaxEventBytes {
		what = "a base state"
	}
	return fmt.Sprintf("%s, over the %s limit for %s", model.ByteSize(e.size), model.ByteSize(e.limit), what)
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
