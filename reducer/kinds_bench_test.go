package reducer

import "testing"

// BenchmarkCountKind counts the kinds of a generated conversation (every
// known kind and a few others), the per-event cost Apply pays for the
// state's kind counts.
func BenchmarkCountKind(b *testing.B) {
	evs := leanGenerated(b, 10000, 1)
	kinds := make([]string, len(evs), len(evs)+2)
	for i, ev := range evs {
		kinds[i] = ev.Kind
	}
	kinds = append(kinds, "ExperimentalThingEvent", "")
	b.ReportAllocs()
	var c kindCounts
	var other kindTable
	k := 0
	for b.Loop() {
		if k == len(kinds) {
			c, other, k = kindCounts{}, nil, 0
		}
		c, other = countKind(c, other, kinds[k])
		k++
	}
	if len(c) == 0 {
		b.Fatal("no counts")
	}
}
