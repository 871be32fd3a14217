package conversation

import (
	"time"

	"ohwatch/reducer"
	"ohwatch/tui"
)

// maxCachedRows bounds the row cache; past it the cache starts over, which
// costs one frame of re-rendering the visible rows.
const maxCachedRows = 4096

// rowKey identifies a rendered row: everything that can change its text.
// Events never change once logged, so the index stands for the content.
type rowKey struct {
	index    int
	width    int
	numWidth int
	timeMode tui.TimeMode
	wide     bool   // times past a day in full
	start    int64  // the conversation start, for relative times
	query    string // the search, whose matches the row highlights
	detail   bool   // the search matched only in the event's raw JSON
}

// renderCache memoises what is costly to recompute each frame; each
// conversation view owns one.
type renderCache struct {
	rows rowCache

	stateOK  bool
	stateIdx int
	stateVer uint64
	stateVal reducer.State

	startOK bool
	start   time.Time

	scrub scrubCache

	forget forgetIndex

	// keys is the key map as it applies in the frame being drawn.
	keys tui.KeyMap
}

func newRenderCache() renderCache {
	return renderCache{rows: make(rowCache, 256)}
}

// clearRows drops every cached row (the styles changed).
func (c *renderCache) clearRows() {
	clear(c.rows)
}

// rowCache is the list's rendered rows, the one part of the cache the
// list pane is given.
type rowCache map[rowKey]string

// row returns a cached row, rendering and caching it on a miss.
func (c *rowCache) row(k rowKey, render func() string) string {
	if s, ok := (*c)[k]; ok {
		return s
	}
	if len(*c) >= maxCachedRows {
		clear(*c)
	}
	s := render()
	(*c)[k] = s
	return s
}

// stateAt returns log.At(i), recomputed only when the cursor or the log
// changed since the last call.
func (c *renderCache) stateAt(log *reducer.Log, i int) reducer.State {
	v := log.Version()
	if c.stateOK && c.stateIdx == i && c.stateVer == v {
		return c.stateVal
	}
	c.stateVal = log.At(i)
	c.stateIdx, c.stateVer, c.stateOK = i, v, true
	return c.stateVal
}

// startTime returns the time of the conversation's first timed event, the
// origin of relative times. It is found once among the first events.
func (c *renderCache) startTime(log *reducer.Log) time.Time {
	if c.startOK {
		return c.start
	}
	n := min(log.Len(), 64)
	for i := 0; i < n; i++ {
		if t := log.Event(i).Time; !t.IsZero() {
			c.start, c.startOK = t, true
			return t
		}
	}
	return time.Time{}
}
