package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// results holds what one command's benchmarks reported: for each
// benchmark (its full name, sub-benchmarks included, without the
// GOMAXPROCS suffix), one run per -count, each a value per unit.
//
// A row's rule reads it through the methods below; the first value a
// rule asks for and the output does not hold is kept in err, so a rule
// is written as the sentence it fills and checked once at the end.
type results struct {
	names []string // in the order of the output
	runs  map[string][]run
	err   error
}

// run is one line of benchmark output.
type run struct {
	iters  int
	values map[string]float64
}

// resultLine is a benchmark's result: its name, the iterations, then
// value-unit pairs. With -v, or when a benchmark writes to stdout, the
// name can stand on a line of its own and the figures follow on the next.
var (
	nameLine    = regexp.MustCompile(`^(Benchmark\S+)\s*$`)
	resultLine  = regexp.MustCompile(`^(Benchmark\S+)\s+(\d+)((?:\s+[-+0-9.e]+ \S+)+)\s*$`)
	figuresLine = regexp.MustCompile(`^\s*(\d+)((?:\s+[-+0-9.e]+ \S+)+)\s*$`)
)

// parseBench reads `go test -bench` output. procs is the GOMAXPROCS the
// benchmarks ran with: Go appends "-procs" to every name when it is more
// than 1, and a sub-benchmark's own name may end in digits too.
func parseBench(r io.Reader, procs int) (*results, error) {
	res := &results{runs: map[string][]run{}}
	suffix := "-" + strconv.Itoa(procs)
	pending := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		var name, iters, pairs string
		if m := resultLine.FindStringSubmatch(line); m != nil {
			name, iters, pairs = m[1], m[2], m[3]
		} else if m := figuresLine.FindStringSubmatch(line); m != nil && pending != "" {
			name, iters, pairs = pending, m[1], m[2]
		} else {
			if m := nameLine.FindStringSubmatch(line); m != nil {
				pending = m[1]
			}
			continue
		}
		pending = ""
		if procs > 1 {
			name = strings.TrimSuffix(name, suffix)
		}
		n, err := strconv.Atoi(iters)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", line, err)
		}
		f := strings.Fields(pairs)
		rn := run{iters: n, values: make(map[string]float64, len(f)/2)}
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%q: %v", line, err)
			}
			rn.values[f[i+1]] = v
		}
		if _, ok := res.runs[name]; !ok {
			res.names = append(res.names, name)
		}
		res.runs[name] = append(res.runs[name], rn)
	}
	return res, sc.Err()
}

// fail keeps the first thing a rule asked for that the output lacks.
func (r *results) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

// vals is a unit's value in every run of a benchmark ("iters" is the
// iteration count).
func (r *results) vals(name, unit string) []float64 {
	runs, ok := r.runs[name]
	if !ok {
		r.fail("no result for %s", name)
		return nil
	}
	var vs []float64
	for _, rn := range runs {
		if unit == "iters" {
			vs = append(vs, float64(rn.iters))
			continue
		}
		v, ok := rn.values[unit]
		if !ok {
			r.fail("%s reports no %s", name, unit)
			return nil
		}
		vs = append(vs, v)
	}
	return vs
}

// subs is the sub-benchmarks directly under a benchmark, in the order
// they ran.
func (r *results) subs(parent string) []string {
	var out []string
	for _, n := range r.names {
		if rest, ok := strings.CutPrefix(n, parent+"/"); ok && !strings.Contains(rest, "/") {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		r.fail("no sub-benchmarks of %s", parent)
	}
	return out
}

// mean is a unit's mean over a benchmark's runs.
func (r *results) mean(name, unit string) float64 {
	vs := r.vals(name, unit)
	if len(vs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, v := range vs {
		s += v
	}
	return s / float64(len(vs))
}

// span is a unit's values over a benchmark's runs as the page writes a
// range: "530-558", or one figure when every run rounds to it.
func (r *results) span(name, unit string, f format) string {
	return spanOf(r.vals(name, unit), f)
}

// each is span for every sub-benchmark of parent, joined by sep.
func (r *results) each(parent, unit string, f format, sep string) string {
	var parts []string
	for _, s := range r.subs(parent) {
		parts = append(parts, r.span(s, unit, f))
	}
	return strings.Join(parts, sep)
}

// spanAll is one range over a unit's values in every sub-benchmark of
// parent and every run.
func (r *results) spanAll(parent, unit string, f format) string {
	var vs []float64
	for _, s := range r.subs(parent) {
		vs = append(vs, r.vals(s, unit)...)
	}
	return spanOf(vs, f)
}

// format writes one figure.
type format func(float64) string

// num divides by scale and writes prec decimals: num(1, 1e6) turns
// ns/op into milliseconds with one decimal.
func num(prec int, scale float64) format {
	return func(v float64) string { return strconv.FormatFloat(v/scale, 'f', prec, 64) }
}

// sig writes a figure divided by scale with about three significant
// digits (0.734, 3.41, 14.9, 149), as the page's figures are written.
func sig(scale float64) format {
	return func(v float64) string {
		v /= scale
		switch a := math.Abs(v); {
		case a < 1:
			return strconv.FormatFloat(v, 'f', 2, 64)
		case a < 10:
			return strconv.FormatFloat(v, 'f', 1, 64)
		default:
			return strconv.FormatFloat(v, 'f', 0, 64)
		}
	}
}

// spanOf writes the smallest and largest of vs, or one figure when they
// are written the same.
func spanOf(vs []float64, f format) string {
	if len(vs) == 0 {
		return "?"
	}
	lo, hi := vs[0], vs[0]
	for _, v := range vs[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	a, b := f(lo), f(hi)
	if a == b {
		return a
	}
	return a + "-" + b
}

// ratio writes a/b as the page's ratios are written ("1.73x").
func ratio(a, b float64) string {
	return strconv.FormatFloat(a/b, 'f', 2, 64) + "x"
}

// bold is Markdown's strong emphasis: the figure a reader looks for.
func bold(s string) string { return "**" + s + "**" }
