package compare

import (
	"fmt"
	"math"

	"ohwatch/format"
)

// deltas say in words how b compares with a, one line per figure that
// differs (or that both report the same).
func deltas(a, b SideReport) []string {
	out := []string{}
	if a.costOK && b.costOK {
		out = append(out, costDelta(a.cost, b.cost))
	}
	if a.timed && b.timed {
		switch d := b.duration - a.duration; {
		case d < 0:
			out = append(out, "B took "+format.Duration(-d)+" less")
		case d > 0:
			out = append(out, "B took "+format.Duration(d)+" more")
		default:
			out = append(out, "B took as long")
		}
	}
	if a.MetricsReported && b.MetricsReported {
		ta, tb := a.Tokens.Prompt+a.Tokens.Completion, b.Tokens.Prompt+b.Tokens.Completion
		out = append(out, relative("B used", ta, tb, "fewer tokens", "more tokens", "as many tokens"))
		out = append(out, count("B made", a.LLMCalls, b.LLMCalls, "LLM call", "LLM calls"))
	}
	out = append(out, count("B took", a.Steps, b.Steps, "step", "steps"))
	out = append(out, count("B had", a.Errors, b.Errors, "error", "errors"))
	return out
}

// costDelta words the cost of b against a's.
func costDelta(a, b float64) string {
	switch {
	case a == b:
		return "B cost the same"
	case a == 0:
		return "B cost " + format.Cost(b-a, true) + " more"
	}
	pct := int(math.Round(100 * math.Abs(b-a) / a))
	if pct == 0 {
		return "B cost about the same"
	}
	if b < a {
		return fmt.Sprintf("B is %d%% cheaper", pct)
	}
	return fmt.Sprintf("B is %d%% more expensive", pct)
}

// relative words b against a as a percentage.
func relative(subject string, a, b int64, less, more, same string) string {
	switch {
	case a == b:
		return subject + " " + same
	case a == 0:
		return fmt.Sprintf("%s %s %s", subject, format.Count(b-a), more)
	}
	pct := int(math.Round(100 * math.Abs(float64(b-a)) / float64(a)))
	if b < a {
		return fmt.Sprintf("%s %d%% %s", subject, pct, less)
	}
	return fmt.Sprintf("%s %d%% %s", subject, pct, more)
}

// count words b against a as a difference of counts.
func count(subject string, a, b int, one, many string) string {
	n := b - a
	word := func(n int) string {
		if n == 1 {
			return one
		}
		return many
	}
	switch {
	case n < 0:
		return fmt.Sprintf("%s %d fewer %s", subject, -n, word(-n))
	case n > 0:
		return fmt.Sprintf("%s %d more %s", subject, n, word(n))
	}
	return fmt.Sprintf("%s as many %s", subject, many)
}
