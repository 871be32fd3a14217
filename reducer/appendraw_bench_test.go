package reducer

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"ohwatch/gen"
	"ohwatch/model"
)

// BenchmarkAppendDecoded appends a generated 100k-event conversation,
// decoded with its raw bytes as a reader hands it on, to a new log in
// batches of 1,024 and of 2,048 (a load's usual batch), reporting events
// per CPU-second: the reducer's part of a load.
func BenchmarkAppendDecoded(b *testing.B) {
	var evs []model.Event
	for raw := range gen.Events(gen.Options{Events: 100_000, Seed: 1}) {
		ev, err := model.Decode(raw)
		if err != nil {
			b.Fatal(err)
		}
		evs = append(evs, ev)
	}
	for _, batch := range []int{1024, 2048} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				c0 := cpuTime()
				log := NewLog(nil, 0)
				for k := 0; k < len(evs); k += batch {
					log.Append(evs[k:min(k+batch, len(evs))]...)
				}
				// The log's blocks go back to the pool once it is
				// collected: a load after another reuses them, as a
				// viewer's would.
				cpu += cpuTime() - c0
				b.StopTimer()
				log = nil
				runtime.GC()
				runtime.GC()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.N*len(evs))/cpu.Seconds(), "events/cpu-s")
		})
	}
}
