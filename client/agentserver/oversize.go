package agentserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

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

// headScan is how much of an unreadable event is searched for its header.
const headScan = 64 << 10

// headFields finds "id", "kind", "timestamp" and "source" in the first
// bytes of an event that could not be read whole: the SDK writes the
// header fields first. Best effort: a nested object's field of the same
// name may be taken instead.
var headField = regexp.MustCompile(`"(id|kind|timestamp|source)"\s*:\s*"((?:[^"\\]|\\.){0,200})"`)

// unreadablePlaceholder is the event kept in place of one that could not
// be read: visible in every view as an unknown event that says why, and
// recorded, so the log shows where something is missing. Its id derives
// from the original's, so a reconnect that meets the same event again
// does not add a second placeholder; origID is the original id ("" when
// not found).
func unreadablePlaceholder(head []byte, limit int64) (ev model.Event, origID string) {
	head = head[:min(len(head), headScan)]
	fields := map[string]string{}
	for _, m := range headField.FindAllSubmatch(head, -1) {
		if name := string(m[1]); fields[name] == "" {
			var s string
			if json.Unmarshal(append(append([]byte{'"'}, m[2]...), '"'), &s) == nil {
				fields[name] = s
			}
		}
	}
	origID = fields["id"]
	kind := fields["kind"]
	if kind == "" {
		kind = "event"
	}
	reason := fmt.Sprintf("this %s is over the %s limit for one event and could not be read", kind, byteSize(limit))
	raw, _ := json.Marshal(map[string]string{
		"kind":          "UnreadableEvent",
		"id":            "unreadable-" + origID,
		"timestamp":     fields["timestamp"],
		"source":        fields["source"],
		"original_kind": fields["kind"],
		"original_id":   origID,
		"reason":        reason,
	})
	ev, err := model.Decode(raw)
	if err != nil {
		ev = model.Event{Kind: "UnreadableEvent", ID: "unreadable-" + origID, Raw: raw}
	}
	ev.Summary = model.SanitizeLine("unreadable " + kind + ": over the " + byteSize(limit) + " limit for one event")
	ev.Body = &model.Unknown{Reason: model.SanitizeLine(reason)}
	return ev, origID
}

// tooBig reports whether a read failed on the read limit.
func tooBig(err error) bool { return errors.Is(err, websocket.ErrMessageTooBig) }
