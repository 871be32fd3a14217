package model

import (
	"strconv"

	"ohwatch/internal/jsonx"
	"ohwatch/internal/sanitize"
)

// A third of a conversation's events are `stats` updates, and reading one
// was the dearest part of decoding: its value was validated whole, then
// walked again to read it, through callbacks. fastStats reads the usual
// shape of that value, {"usage_to_metrics": {id: {model_name,
// accumulated_cost, max_budget_per_task, accumulated_token_usage}}}, in
// the one pass that validates it. Anything it is not sure to read as
// readStats would (a value of another type, a non-empty list, a number
// out of range) makes it decline, and the event is then read the general
// way: the two never disagree (TestFastStatsAgreesWithReadStats,
// FuzzFastStats).

// statsDepth is the nesting depth the validator gives the members of an
// event's value object (see containerEnd): fastStats validates what it
// skips at the same depths, so it accepts nothing the validator refuses.
const statsDepth = 2

// fastStats reads and validates the stats object whose '{' is at data[i],
// and returns it with the index just past it; ok is false when it
// declines.
func fastStats(data []byte, i int) (st *Stats, end int, ok bool) {
	c := cursor{data: data, i: i}
	// Declined at the first key, before anything is allocated, for the
	// value of any other state update that is an object.
	if !c.open('{') || !c.peekKey("usage_to_metrics") && !c.peekKey("service_to_metrics") {
		return nil, 0, false
	}
	st = &Stats{UsageToMetrics: make(map[string]*Metrics, 2)}
	ok = c.members(statsDepth, func(key []byte) bool {
		switch string(key) {
		case "usage_to_metrics", "service_to_metrics":
			if c.null() {
				return true
			}
			return c.open('{') && c.members(statsDepth+1, func(id []byte) bool {
				if c.null() {
					return true
				}
				m := &Metrics{}
				st.UsageToMetrics[sanitize.Line(internName(id))] = m
				return c.open('{') && c.members(statsDepth+2, func(key []byte) bool { return c.metricsMember(m, key) })
			})
		}
		return c.skip(statsDepth)
	})
	if !ok {
		return nil, 0, false
	}
	return st, c.i, true
}

// metricsMember reads the value of one member of a Metrics object.
func (c *cursor) metricsMember(m *Metrics, key []byte) bool {
	switch string(key) {
	case "model_name":
		s, ok := c.name()
		m.ModelName = sanitize.Line(s)
		return ok
	case "accumulated_cost":
		f, _, ok := c.number()
		m.AccumulatedCost = f
		return ok
	case "max_budget_per_task":
		f, null, ok := c.number()
		if ok && !null {
			budget := f // allocated only when there is one
			m.MaxBudgetPerTask = &budget
		}
		return ok
	case "accumulated_token_usage":
		if c.null() {
			return true
		}
		var t TokenUsage
		if !c.open('{') || !c.members(statsDepth+3, func(key []byte) bool { return c.tokenMember(&t, key) }) {
			return false
		}
		m.Accumulated = t
		return true
	case "costs", "response_latencies", "token_usages":
		// The full form's lists: only an empty one is read here.
		return c.null() || c.emptyList()
	}
	return c.skip(statsDepth + 2)
}

// tokenMember reads the value of one member of a TokenUsage object.
func (c *cursor) tokenMember(t *TokenUsage, key []byte) bool {
	switch string(key) {
	case "model":
		s, ok := c.name()
		t.Model = sanitize.Line(s)
		return ok
	case "response_id":
		if c.null() {
			t.ResponseID = ""
			return true
		}
		s, ok := c.str()
		t.ResponseID = intern(s)
		return ok
	}
	n, _ := tokenCount(t, key)
	if n == nil {
		return c.skip(statsDepth + 3)
	}
	v, ok := c.integer()
	*n = v
	return ok
}

// cursor validates and reads JSON tokens at data[i]; every method leaves i
// past what it read and reports false on anything it will not read.
type cursor struct {
	data []byte
	i    int
}

// open reads the opening bracket b.
func (c *cursor) open(b byte) bool {
	c.i = jsonx.SkipWS(c.data, c.i)
	if c.i < len(c.data) && c.data[c.i] == b {
		c.i++
		return true
	}
	return false
}

// peekKey reports whether the next token is the key k, reading nothing.
func (c *cursor) peekKey(k string) bool {
	i := jsonx.SkipWS(c.data, c.i)
	return len(c.data)-i > len(k)+1 && c.data[i] == '"' && string(c.data[i+1:i+1+len(k)]) == k && c.data[i+1+len(k)] == '"'
}

// members reads the members of the object just opened, calling member
// with each key once the colon after it is read; member reads the value.
// depth is the object's depth for the values it skips.
func (c *cursor) members(depth int, member func(key []byte) bool) bool {
	if depth >= jsonx.MaxDepth {
		return false
	}
	data := c.data
	c.i = jsonx.SkipWS(data, c.i)
	if c.i < len(data) && data[c.i] == '}' {
		c.i++
		return true
	}
	for {
		key, ok := c.str()
		if !ok {
			return false
		}
		c.i = jsonx.SkipWS(data, c.i)
		if c.i >= len(data) || data[c.i] != ':' {
			return false
		}
		c.i++
		if !member(key) {
			return false
		}
		c.i = jsonx.SkipWS(data, c.i)
		if c.i >= len(data) {
			return false
		}
		switch data[c.i] {
		case ',':
			c.i++
		case '}':
			c.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string literal and returns its raw body, escapes as they
// are, which is what the lean reader's fields keep.
func (c *cursor) str() ([]byte, bool) {
	i := jsonx.SkipWS(c.data, c.i)
	if i >= len(c.data) || c.data[i] != '"' {
		return nil, false
	}
	end, err := jsonx.StringEnd(c.data, i)
	if err != nil {
		return nil, false
	}
	c.i = end
	return c.data[i+1 : end-1], true
}

// name reads a model name: a string, or null for none.
func (c *cursor) name() (string, bool) {
	if c.null() {
		return "", true
	}
	s, ok := c.str()
	if !ok {
		return "", false
	}
	return internName(s), true
}

// null reads a null, reporting whether there was one.
func (c *cursor) null() bool {
	i := jsonx.SkipWS(c.data, c.i)
	if len(c.data)-i >= 4 && string(c.data[i:i+4]) == "null" {
		c.i = i + 4
		return true
	}
	return false
}

// emptyList reads [].
func (c *cursor) emptyList() bool {
	if !c.open('[') {
		return false
	}
	c.i = jsonx.SkipWS(c.data, c.i)
	if c.i < len(c.data) && c.data[c.i] == ']' {
		c.i++
		return true
	}
	return false
}

// numberSpan reads a number and returns its span.
func (c *cursor) numberSpan() ([]byte, bool) {
	i := jsonx.SkipWS(c.data, c.i)
	if i >= len(c.data) || c.data[i] != '-' && (c.data[i] < '0' || c.data[i] > '9') {
		return nil, false
	}
	end, err := jsonx.NumberEnd(c.data, i)
	if err != nil {
		return nil, false
	}
	c.i = end
	return c.data[i:end], true
}

// number reads a float, or null (0, as the lean reader reads it).
func (c *cursor) number() (f float64, null, ok bool) {
	if c.null() {
		return 0, true, true
	}
	v, ok := c.numberSpan()
	if !ok {
		return 0, false, false
	}
	f, err := strconv.ParseFloat(string(v), 64)
	return f, false, err == nil
}

// integer reads an integer, or null (0).
func (c *cursor) integer() (int64, bool) {
	if c.null() {
		return 0, true
	}
	v, ok := c.numberSpan()
	if !ok {
		return 0, false
	}
	return jsonx.ParseInt(v)
}

// skip validates and steps over a value nested at depth.
func (c *cursor) skip(depth int) bool {
	end, err := jsonx.ValueEnd(c.data, c.i, depth)
	if err != nil {
		return false
	}
	c.i = end
	return true
}
