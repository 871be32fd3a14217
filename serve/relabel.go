package serve

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"ohwatch/model"
)

// loopID is the conversation id of the n-th restart of the conversation
// id: derived, so a restart's id is the same on every run of the server.
func loopID(id string, n int) string {
	sum := sha256.Sum256([]byte(model.NormalizeConversationID(id) + "/run/" + strconv.Itoa(n)))
	return hex.EncodeToString(sum[:16])
}

// loopShift is how far the n-th restart's timestamps move: n times the
// recording's span plus a second, so each run begins after the one before
// ended and a restart sorts as the newer conversation.
func loopShift(recorded []model.Event, n int) time.Duration {
	var first, last time.Time
	for _, ev := range recorded {
		if ev.Time.IsZero() {
			continue
		}
		if first.IsZero() || ev.Time.Before(first) {
			first = ev.Time
		}
		if ev.Time.After(last) {
			last = ev.Time
		}
	}
	return time.Duration(n) * (last.Sub(first) + time.Second).Truncate(time.Microsecond)
}

// relabeler makes a recording into a new conversation's: every event id,
// and every reference to one (an observation's action_id, …), becomes a
// fresh id derived from the new conversation's, and every timestamp moves
// by shift. The content is otherwise the recorded one.
type relabeler struct {
	conv  string
	ids   map[string]string // recorded id → new id
	shift time.Duration
}

func newRelabeler(recorded []model.Event, conv string, shift time.Duration) *relabeler {
	r := &relabeler{conv: conv, ids: make(map[string]string, len(recorded)), shift: shift}
	for _, ev := range recorded {
		if _, dup := r.ids[ev.ID]; !dup && ev.ID != "" {
			r.ids[ev.ID] = derivedUUID(conv + "/" + ev.ID)
		}
	}
	return r
}

// refs replaces every JSON string in raw that is exactly a recorded id
// (the event's own, an action_id, the ids a condensation forgets, …) by
// its new id, in one pass over the bytes: each string literal is looked
// up whole, so text that merely contains an id is left as recorded, and
// neither a member's name nor a "kind" value is ever touched.
func (r *relabeler) refs(raw []byte) []byte {
	out := make([]byte, 0, len(raw)+16)
	last := 0
	var key []byte // the name of the member whose value comes next
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
		}
		j := i + 1
		for j < len(raw) && raw[j] != '"' {
			if raw[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(raw) {
			break
		}
		lit := raw[i+1 : j]
		k := j + 1
		for k < len(raw) && (raw[k] == ' ' || raw[k] == '\t' || raw[k] == '\n' || raw[k] == '\r') {
			k++
		}
		switch n, ok := r.ids[string(lit)]; {
		case k < len(raw) && raw[k] == ':':
			key = lit // a member's name
		case ok && string(key) != "kind":
			out = append(append(append(out, raw[last:i+1]...), n...), '"')
			last = j + 1
		}
		i = j
	}
	return append(out, raw[last:]...)
}

// id is the new id of the recorded event id (id itself when no recorded
// event has it).
func (r *relabeler) id(id string) string {
	if n, ok := r.ids[id]; ok {
		return n
	}
	return id
}

// events relabels evs. An event whose relabelled form does not decode
// (it cannot happen to one that decoded: only quoted ids and the timestamp
// change) is kept as it was rather than lost.
func (r *relabeler) events(evs []model.Event) []model.Event {
	out := make([]model.Event, len(evs))
	for i, ev := range evs {
		raw := r.refs(ev.Raw)
		raw = r.retime(raw, ev)
		if nev, err := model.Decode(raw); err == nil {
			out[i] = nev
		} else {
			out[i] = ev
		}
	}
	return out
}

// retime moves the event's own timestamp by the shift, written the way
// the SDK writes one. The SDK writes the header (id, timestamp, source)
// first, so the first "timestamp" member is the event's own; only that
// value changes.
func (r *relabeler) retime(raw []byte, ev model.Event) []byte {
	if r.shift == 0 || ev.Time.IsZero() {
		return raw
	}
	k := bytes.Index(raw, []byte(`"timestamp"`))
	if k < 0 {
		return raw
	}
	i := k + len(`"timestamp"`)
	for i < len(raw) && (raw[i] == ' ' || raw[i] == ':' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	if i >= len(raw) || raw[i] != '"' {
		return raw
	}
	end := bytes.IndexByte(raw[i+1:], '"')
	if end < 0 {
		return raw
	}
	end += i + 2 // past the closing quote
	moved := strconv.Quote(formatTimestamp(ev.Time.Add(r.shift)))
	return append(append(append(make([]byte, 0, len(raw)+8), raw[:i]...), moved...), raw[end:]...)
}

// derivedUUID is a version-4-shaped UUID derived from seed, in the form
// of every event id the SDK makes.
func derivedUUID(seed string) string {
	b := sha256.Sum256([]byte(seed))
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
