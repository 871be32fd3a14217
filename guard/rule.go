package guard

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"ohwatch/format"
)

// Metric is what a rule measures.
type Metric string

// The metrics a rule can watch.
const (
	Cost     Metric = "cost"     // USD spent, as the conversation reports it
	Tokens   Metric = "tokens"   // input + output tokens
	Steps    Metric = "steps"    // LLM steps, as the header counts them
	Calls    Metric = "calls"    // LLM calls
	Idle     Metric = "idle"     // time without an event while running
	Duration Metric = "duration" // time since the run started
	Errors   Metric = "errors"   // error observations and agent errors
	Repeat   Metric = "repeat"   // the same tool call N times in a row
	Context  Metric = "context"  // % of the context window in use
)

// metrics lists the metrics in the order usage messages name them.
var metrics = []Metric{Cost, Tokens, Steps, Calls, Idle, Duration, Errors, Repeat, Context}

// Action is what a tripped rule asks for.
type Action string

// The actions of a tripped rule.
const (
	Notify    Action = "notify"    // a banner, bell and headless line; the run goes on
	Pause     Action = "pause"     // pause the conversation (after the current LLM call)
	Interrupt Action = "interrupt" // cancel the in-flight LLM call; falls back to pause
)

// Stops reports whether the action stops the run.
func (a Action) Stops() bool { return a == Pause || a == Interrupt }

// Rule is one parsed METRIC>LIMIT[:ACTION].
type Rule struct {
	Metric Metric
	// Limit is in the metric's unit: USD, a count, seconds for idle and
	// duration, percent for context.
	Limit  float64
	Action Action
	// Text is the rule as written, for lines and banners.
	Text string
}

// Usage is the rule syntax in one line, for usage errors and help.
const Usage = "METRIC>LIMIT[:ACTION], METRIC one of cost, tokens, steps, calls, idle, duration, errors, repeat, context; ACTION notify (default), pause or interrupt (cost>5:pause, steps>50, idle>10m:notify, context>90%)"

// Parse reads one rule. An error names what is wrong on one line.
func Parse(s string) (Rule, error) {
	text := strings.TrimSpace(s)
	name, rest, ok := strings.Cut(text, ">")
	if !ok {
		return Rule{}, fmt.Errorf("guard %q: expected METRIC>LIMIT[:ACTION]", s)
	}
	r := Rule{Metric: Metric(strings.ToLower(strings.TrimSpace(name))), Action: Notify, Text: text}
	limit, action, hasAction := strings.Cut(rest, ":")
	if hasAction {
		r.Action = Action(strings.ToLower(strings.TrimSpace(action)))
		switch r.Action {
		case Notify, Pause, Interrupt:
		default:
			return Rule{}, fmt.Errorf("guard %q: unknown action %q (notify, pause or interrupt)", s, action)
		}
	}
	var err error
	if r.Limit, err = parseLimit(r.Metric, strings.TrimSpace(limit)); err != nil {
		return Rule{}, fmt.Errorf("guard %q: %v", s, err)
	}
	return r, nil
}

// ParseAll reads every rule, stopping at the first that does not parse.
func ParseAll(specs []string) ([]Rule, error) {
	rules := make([]Rule, 0, len(specs))
	for _, s := range specs {
		r, err := Parse(s)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// parseLimit reads a limit in the metric's own notation: $5 or 5 for cost,
// 2M or 500k for tokens, 10m for durations, 90% for context, a count
// otherwise.
func parseLimit(m Metric, s string) (float64, error) {
	if s == "" {
		return 0, fmt.Errorf("missing the limit")
	}
	var v float64
	var err error
	switch m {
	case Cost:
		v, err = strconv.ParseFloat(strings.TrimPrefix(s, "$"), 64)
	case Tokens:
		v, err = parseCount(s)
	case Idle, Duration:
		var d time.Duration
		d, err = time.ParseDuration(s)
		v = d.Seconds()
	case Context:
		v, err = strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err == nil && v > 100 {
			return 0, fmt.Errorf("context is a percentage of the window: at most 100")
		}
	case Steps, Calls, Errors, Repeat:
		var n int64
		n, err = strconv.ParseInt(s, 10, 64)
		v = float64(n)
	default:
		return 0, fmt.Errorf("unknown metric %q (%s)", m, metricList())
	}
	switch {
	case err != nil:
		return 0, fmt.Errorf("limit %q is not a %s limit", s, unitOf(m))
	case math.IsNaN(v) || math.IsInf(v, 0) || v < 0:
		return 0, fmt.Errorf("limit %q must be 0 or more", s)
	}
	return v, nil
}

// parseCount reads 1500, 1.5k, 2M or 1B.
func parseCount(s string) (float64, error) {
	mult := 1.0
	switch strings.ToLower(s[len(s)-1:]) {
	case "k":
		mult = 1e3
	case "m":
		mult = 1e6
	case "b":
		mult = 1e9
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	v, err := strconv.ParseFloat(s, 64)
	return v * mult, err
}

// unitOf names a metric's limit notation for errors.
func unitOf(m Metric) string {
	switch m {
	case Cost:
		return "dollar ($5, 0.5)"
	case Tokens:
		return "token (500k, 2M)"
	case Idle, Duration:
		return "duration (90s, 10m, 1h)"
	case Context:
		return "percentage (90%)"
	}
	return "whole-number"
}

func metricList() string {
	names := make([]string, len(metrics))
	for i, m := range metrics {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

// Format words a value of the metric as every surface shows it: $4.10,
// 1.2M, 12, 10m00s, 85%.
func Format(m Metric, v float64) string {
	switch m {
	case Cost:
		return format.Cost(v, true)
	case Tokens:
		return format.Count(int64(v))
	case Idle, Duration:
		return format.Duration(time.Duration(v * float64(time.Second)))
	case Context:
		return strconv.FormatFloat(v, 'f', 0, 64) + "%"
	}
	return strconv.FormatInt(int64(v), 10)
}

// Short is the limit as a header shows it: $5 rather than $5.00.
func Short(m Metric, v float64) string {
	if m == Cost && v == math.Trunc(v) {
		return "$" + strconv.FormatInt(int64(v), 10)
	}
	return Format(m, v)
}

// Pair words a value and the limit it passed as Format does, with more
// digits when Format would write them alike: a trip reads "$5.01 > $5.00"
// or "$5.004 > $5.00", never "$5.00 > $5.00".
func Pair(m Metric, v, limit float64) (value, lim string) {
	value, lim = Format(m, v), Format(m, limit)
	if value != lim || v == limit {
		return value, lim
	}
	digits := func(prefix, suffix string, scale float64) (string, string) {
		for p := 1; p <= 9; p++ {
			a := prefix + strconv.FormatFloat(v*scale, 'f', p, 64) + suffix
			b := prefix + strconv.FormatFloat(limit*scale, 'f', p, 64) + suffix
			if a != b {
				return a, b
			}
		}
		return value, lim
	}
	switch m {
	case Cost:
		return digits("$", "", 1)
	case Context:
		return digits("", "%", 1)
	case Idle, Duration:
		return digits("", "s", 1)
	}
	if vi, li := strconv.FormatFloat(v, 'f', -1, 64), strconv.FormatFloat(limit, 'f', -1, 64); vi != li {
		return vi, li
	}
	return value, lim
}
