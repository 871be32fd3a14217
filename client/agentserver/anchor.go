package agentserver

import (
	"encoding/json"
	"strings"
	"time"

	"ohwatch/model"
)

// anchor is the newest persisted event seen so far: the resume point sent
// as after_timestamp on every (re)connect. It must advance as events arrive;
// a stale anchor makes each reconnect replay the whole session.
//
// Only the event is remembered; its timestamp string is read from the raw
// bytes when a connection is opened, so the server gets back exactly the
// form it wrote (naive local time, or zoned), and the hot path costs one
// time comparison per event.
type anchor struct {
	at  time.Time
	raw []byte
}

// observe moves the anchor forward if ev is a newer persisted event: only
// events the server writes to its event log are replayed by
// resend_mode=since, so only they may anchor a resume (protocol §10).
func (a *anchor) observe(ev model.Event) {
	if ev.Time.IsZero() || !model.Persisted(ev) || !ev.Time.After(a.at) {
		return
	}
	a.at, a.raw = ev.Time, ev.Raw
}

// timestamp is the anchor's timestamp as the server wrote it, "" when no
// event has been seen.
func (a *anchor) timestamp() string {
	if a.raw == nil {
		return ""
	}
	var v struct {
		Timestamp string `json:"timestamp"`
	}
	if json.Unmarshal(a.raw, &v) != nil {
		return ""
	}
	return v.Timestamp
}

// isFullState reports whether ev is a full_state snapshot frame.
func isFullState(ev model.Event) bool {
	su, ok := ev.Body.(*model.StateUpdate)
	return ok && su.FullState
}

// Layouts of the timestamps the agent-server writes: naive local time
// (Event.timestamp) and zoned ISO (metadata, Cloud).
const (
	naiveLayout       = "2006-01-02T15:04:05.999999999"
	naiveOutputLayout = "2006-01-02T15:04:05.000000"
)

// shiftTimestamp moves an ISO timestamp back by d, keeping its form (naive
// stays naive, zoned stays zoned). It reports false for a timestamp it
// cannot read, in which case callers fall back to the unshifted value.
func shiftTimestamp(ts string, d time.Duration) (string, bool) {
	if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
		return t.Add(-d).Format(time.RFC3339Nano), true
	}
	if strings.ContainsAny(ts[min(len(ts), 19):], "Z+") {
		return "", false
	}
	t, err := time.Parse(naiveLayout, ts)
	if err != nil {
		return "", false
	}
	return t.Add(-d).Format(naiveOutputLayout), true
}
