package serve

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
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
	ids   map[string]string
	refs  *strings.Replacer // `"old-id"` → `"new-id"` anywhere in an event
	shift time.Duration
}

func newRelabeler(recorded []model.Event, conv string, shift time.Duration) *relabeler {
	r := &relabeler{conv: conv, ids: make(map[string]string, len(recorded)), shift: shift}
	pairs := make([]string, 0, 2*len(recorded))
	for _, ev := range recorded {
		if ev.ID == "" {
			continue
		}
		if _, dup := r.ids[ev.ID]; dup {
			continue
		}
		n := derivedUUID(conv + "/" + ev.ID)
		r.ids[ev.ID] = n
		pairs = append(pairs, strconv.Quote(ev.ID), strconv.Quote(n))
	}
	r.refs = strings.NewReplacer(pairs...)
	return r
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
		raw := []byte(r.refs.Replace(string(ev.Raw)))
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
// the SDK writes one.
func (r *relabeler) retime(raw []byte, ev model.Event) []byte {
	if r.shift == 0 || ev.Time.IsZero() {
		return raw
	}
	var h struct {
		Timestamp string `json:"timestamp"`
	}
	if json.Unmarshal(raw, &h) != nil || h.Timestamp == "" {
		return raw
	}
	old := []byte(strconv.Quote(h.Timestamp))
	i := bytes.Index(raw, old)
	if i < 0 {
		return raw
	}
	moved := strconv.Quote(formatTimestamp(ev.Time.Add(r.shift)))
	return append(append(append(make([]byte, 0, len(raw)+8), raw[:i]...), moved...), raw[i+len(old):]...)
}

// derivedUUID is a version-4-shaped UUID derived from seed, in the form
// of every event id the SDK makes.
func derivedUUID(seed string) string {
	b := sha256.Sum256([]byte(seed))
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
