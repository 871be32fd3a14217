package model

import (
	"encoding/json"
	"fmt"
	"regexp"

	"ohwatch/internal/sanitize"
)

// KindUnreadable is the kind of the placeholder of an event that could
// not be read.
const KindUnreadable = "UnreadableEvent"

// HeadScan is how much of an unreadable event is searched for its header.
const HeadScan = 64 << 10

// headFields finds "id", "kind", "timestamp" and "source" in the first
// bytes of an event that could not be read whole: the SDK writes the
// header fields first. Best effort: a nested object's field of the same
// name may be taken instead.
var headField = regexp.MustCompile(`"(id|kind|timestamp|source)"\s*:\s*"((?:[^"\\]|\\.){0,200})"`)

// UnreadableEvent is the event kept in place of one that could not
// be read: visible in every view as an unknown event that says why, and
// recorded, so the log shows where something is missing. Its id derives
// from the original's, so a reconnect that meets the same event again
// does not add a second placeholder; origID is the original id ("" when
// not found).
func UnreadableEvent(head []byte, limit int64) (ev Event, origID string) {
	head = head[:min(len(head), HeadScan)]
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
	reason := fmt.Sprintf("this %s is over the %s limit for one event and could not be read", kind, ByteSize(limit))
	raw, _ := json.Marshal(map[string]string{
		"kind":          KindUnreadable,
		"id":            "unreadable-" + origID,
		"timestamp":     fields["timestamp"],
		"source":        fields["source"],
		"original_kind": fields["kind"],
		"original_id":   origID,
		"reason":        reason,
	})
	ev, err := Decode(raw)
	if err != nil {
		ev = Event{Kind: KindUnreadable, ID: "unreadable-" + origID, Raw: raw}
	}
	ev.Summary = sanitize.Line("unreadable " + kind + ": over the " + ByteSize(limit) + " limit for one event")
	ev.Body = &Unknown{Reason: sanitize.Line(reason)}
	return ev, origID
}

// ByteSize says a byte count the way a person reads it.
func ByteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
