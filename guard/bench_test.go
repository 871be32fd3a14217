package guard

import (
	"testing"

	"ohwatch/internal/testevents"
	"ohwatch/reducer"
)

// BenchmarkObserve is the cost of evaluating every metric's rule after one
// event; ns/op divided by the rule count is the cost per event per rule.
func BenchmarkObserve(b *testing.B) {
	evs := testevents.Generated(b, 2000, 3)
	states := make([]reducer.State, len(evs))
	st := reducer.Initial(nil, 0)
	for i, ev := range evs {
		st = reducer.ApplyAt(st, i, ev)
		states[i] = st
	}
	rules, err := ParseAll([]string{"cost>1000000", "tokens>1000B", "steps>1000000", "calls>1000000", "idle>1000h", "duration>1000h", "errors>1000000", "repeat>1000000", "context>99.9%"})
	if err != nil {
		b.Fatal(err)
	}
	set := New(rules)
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		i := n % len(evs)
		set.Observe(i, evs[i], &states[i])
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(rules)), "ns/event/rule")
}
