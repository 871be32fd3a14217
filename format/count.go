package format

import (
	"math"
	"strconv"
	"strings"
)

// Unknown is what a value that was never reported reads as: a zero would
// tell the user something that is not known to be true.
const Unknown = "unknown"

// countUnits are the suffixes of Count, by powers of a thousand.
var countUnits = []string{"", "k", "M", "B", "T"}

// Count prints a count compactly with three significant digits: 950,
// 1.23k, 35.9k, 200k, 4.5M, 2.66B, 1.2T. Trailing zeros are dropped (1k,
// not 1.00k). Past the trillions it switches to an exponent (9.22e18), so
// no count is ever printed in a unit too small for it.
func Count(n int64) string {
	if n < 0 {
		if n == math.MinInt64 {
			return "-9.22e18"
		}
		return "-" + Count(-n)
	}
	if n < 1000 {
		return strconv.FormatInt(n, 10)
	}
	v := float64(n)
	for k := 1; k < len(countUnits); k++ {
		scaled := v / math.Pow(1000, float64(k))
		if scaled >= 999.5 {
			continue // rounds up into the next unit
		}
		return threeDigits(scaled) + countUnits[k]
	}
	return strings.Replace(strconv.FormatFloat(v, 'g', 3, 64), "e+", "e", 1)
}

// threeDigits prints v (1 <= v < 999.5) with three significant digits and
// no trailing zeros: 1.23, 35.9, 200.
func threeDigits(v float64) string {
	prec := 2
	switch {
	case v >= 99.95:
		prec = 0
	case v >= 9.995:
		prec = 1
	}
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Exact prints a count in full with thousands separators, for where every
// digit matters (events loaded, events listed): 100000 → "100,000".
func Exact(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Tokens prints a token count, or Unknown when no metrics were reported.
func Tokens(n int64, reported bool) string {
	if !reported {
		return Unknown
	}
	return Count(n)
}

// Int prints a plain count (LLM calls, steps), or Unknown when it was never
// reported.
func Int(n int, reported bool) string {
	if !reported {
		return Unknown
	}
	return strconv.Itoa(n)
}

// Cost prints a cost in dollars, or Unknown when no price is known: a false
// $0 would tell the user the run was free. Sub-cent costs keep four
// decimals so they do not round to $0.00.
func Cost(usd float64, known bool) string {
	if !known {
		return Unknown
	}
	if usd > 0 && usd < 0.01 {
		return "$" + strconv.FormatFloat(usd, 'f', 4, 64)
	}
	return "$" + strconv.FormatFloat(usd, 'f', 2, 64)
}

// Percent prints part/whole as a whole percentage, "-" when whole is not
// positive (nothing to divide by is not 0%).
func Percent(part, whole int64) string {
	if whole <= 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(part)/float64(whole), 'f', 0, 64) + "%"
}

// CacheHit is the SDK's cache hit rate: cache_read / prompt, or
// cache_read / (prompt + cache_read) when an agent reports the reads apart
// from the prompt (cache_read > prompt). "-" when there were no prompts.
func CacheHit(prompt, cacheRead int64) string {
	den := prompt
	if cacheRead > prompt {
		den = prompt + cacheRead
	}
	return Percent(cacheRead, den)
}
