package format

import (
	"bytes"
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
	var buf [24]byte
	return string(AppendCount(buf[:0], n))
}

// unitScale is 1000^k for the unit countUnits[k]: exact in a float64.
var unitScale = [...]float64{1, 1e3, 1e6, 1e9, 1e12}

// AppendCount is Count appending to dst: a summary built of several
// figures is then one allocation, not one per figure.
func AppendCount(dst []byte, n int64) []byte {
	if n < 0 {
		if n == math.MinInt64 {
			return append(dst, "-9.22e18"...)
		}
		return AppendCount(append(dst, '-'), -n)
	}
	if n < 1000 {
		return strconv.AppendInt(dst, n, 10)
	}
	v := float64(n)
	for k := 1; k < len(countUnits); k++ {
		scaled := v / unitScale[k]
		if scaled >= 999.5 {
			continue // rounds up into the next unit
		}
		return append(appendThreeDigits(dst, scaled), countUnits[k]...)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, v, 'g', 3, 64)
	if e := bytes.Index(dst[start:], []byte("e+")); e >= 0 {
		dst = append(dst[:start+e+1], dst[start+e+2:]...)
	}
	return dst
}

// appendThreeDigits appends v (1 <= v < 999.5) with three significant
// digits and no trailing zeros: 1.23, 35.9, 200.
func appendThreeDigits(dst []byte, v float64) []byte {
	prec := 2
	switch {
	case v >= 99.95:
		prec = 0
	case v >= 9.995:
		prec = 1
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, v, 'f', prec, 64)
	if bytes.IndexByte(dst[start:], '.') >= 0 {
		dst = bytes.TrimRight(bytes.TrimRight(dst, "0"), ".")
	}
	return dst
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
	var buf [32]byte
	return string(AppendCost(buf[:0], usd, known))
}

// AppendCost is Cost appending to dst.
func AppendCost(dst []byte, usd float64, known bool) []byte {
	if !known {
		return append(dst, Unknown...)
	}
	if usd > 0 && usd < 0.01 {
		return strconv.AppendFloat(append(dst, '$'), usd, 'f', 4, 64)
	}
	return strconv.AppendFloat(append(dst, '$'), usd, 'f', 2, 64)
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
