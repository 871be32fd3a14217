package format

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// countByString is Count as it was written before AppendCount, with
// math.Pow and string concatenation: the reference AppendCount must match.
func countByString(n int64) string {
	if n < 0 {
		if n == math.MinInt64 {
			return "-9.22e18"
		}
		return "-" + countByString(-n)
	}
	if n < 1000 {
		return strconv.FormatInt(n, 10)
	}
	v := float64(n)
	for k := 1; k < len(countUnits); k++ {
		scaled := v / math.Pow(1000, float64(k))
		if scaled >= 999.5 {
			continue
		}
		prec := 2
		switch {
		case scaled >= 99.95:
			prec = 0
		case scaled >= 9.995:
			prec = 1
		}
		s := strconv.FormatFloat(scaled, 'f', prec, 64)
		if strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
		return s + countUnits[k]
	}
	return strings.Replace(strconv.FormatFloat(v, 'g', 3, 64), "e+", "e", 1)
}

// TestAppendCountAgreesWithTheStringForm compares at every power of ten
// and its neighbours, at the rounding edges of every unit, and at random.
func TestAppendCountAgreesWithTheStringForm(t *testing.T) {
	var ns []int64
	for p := int64(1); p > 0 && p <= math.MaxInt64/10; p *= 10 {
		for _, m := range []int64{1, 2, 5, 9, 10} {
			for d := int64(-2); d <= 2; d++ {
				ns = append(ns, m*p+d, m*p*9995/1000+d, m*p*99949/10000+d)
			}
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		ns = append(ns, rng.Int64N(1<<uint(rng.IntN(62)+1)))
	}
	ns = append(ns, math.MaxInt64, math.MinInt64, math.MinInt64+1)
	for _, n := range ns {
		for _, n := range []int64{n, -n} {
			want := countByString(n)
			if got := Count(n); got != want {
				t.Fatalf("Count(%d) = %q, want %q", n, got, want)
			}
			if got := string(AppendCount([]byte("x0."), n)); got != "x0."+want {
				t.Fatalf("AppendCount after a prefix = %q, want %q", got, "x0."+want)
			}
		}
	}
}

func TestAppendCostAppends(t *testing.T) {
	for _, c := range []float64{0, 0.004, 0.01, 1.005, 1108.778000699996, -3} {
		for _, known := range []bool{true, false} {
			if got, want := string(AppendCost([]byte("0."), c, known)), "0."+Cost(c, known); got != want {
				t.Errorf("AppendCost(%v, %v) = %q, want %q", c, known, got, want)
			}
		}
	}
}
