package agentserver

import (
	"errors"
	"fmt"

	"github.com/coder/websocket"

	"ohwatch/model"
)

// oversizeGiveUp is how many times in a row an event over the read limit
// may end a connection before the watch gives up: the same event comes
// back on every reconnect, so retrying for ever would download it for
// ever (each time, up to the limit) without ever getting past it.
const oversizeGiveUp = 5

// oversizeError is a connection ended by an event larger than one event
// may be. It unwraps to websocket.ErrMessageTooBig.
type oversizeError struct {
	limit int64
	cause error
}

// Error implements error.
func (e *oversizeError) Error() string {
	return fmt.Sprintf("an event over the %s limit for one event cannot be read", byteSize(e.limit))
}

// Unwrap exposes the library's error.
func (e *oversizeError) Unwrap() error { return e.cause }

// isOversize reports whether a connection ended on an event over the limit.
func isOversize(err error) bool {
	var oe *oversizeError
	return errors.As(err, &oe)
}

// byteSize says a byte count the way a person reads it.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// unreadablePlaceholder is the event kept in place of one that could not
// be read (model.UnreadableEvent).
func unreadablePlaceholder(head []byte, limit int64) (model.Event, string) {
	return model.UnreadableEvent(head, limit)
}

// tooBig reports whether a read failed on the read limit.
func tooBig(err error) bool { return errors.Is(err, websocket.ErrMessageTooBig) }
