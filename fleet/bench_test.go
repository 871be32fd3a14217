package fleet

import (
	"fmt"
	"runtime"
	"testing"

	"ohwatch/gen"
	"ohwatch/model"
)

// BenchmarkMemory100x10k watches 100 generated conversations of 10k events
// each, fed as a live source feeds them (batches of 100 events, one slice
// per conversation batch), and reports the heap the fleet holds afterwards
// against the JSON bytes of every event it was given: a conversation that
// is not open keeps its derived state, not its events (target ≤ 0.5x).
func BenchmarkMemory100x10k(b *testing.B) {
	const convs, events, batch = 100, 10_000, 100
	for b.Loop() {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		f := New()
		var jsonBytes int64
		for c := range convs {
			ref := model.ConversationRef{Source: "http://127.0.0.1:8000", Kind: model.SourceServer, ID: fmt.Sprintf("conv-%03d", c)}
			f.Apply([]model.FleetUpdate{{Ref: ref, Meta: &model.ConversationMeta{Title: ref.ID},
				Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}}})
			evs := make([]model.Event, 0, batch)
			for raw := range gen.Events(gen.Options{Events: events, Seed: int64(c + 1)}) {
				jsonBytes += int64(len(raw))
				ev, err := model.Decode(raw)
				if err != nil {
					b.Fatal(err)
				}
				evs = append(evs, ev)
				if len(evs) == batch {
					f.Apply([]model.FleetUpdate{{Ref: ref, Batch: model.Batch{Events: evs}}})
					evs = make([]model.Event, 0, batch)
				}
			}
			f.Apply([]model.FleetUpdate{{Ref: ref, Batch: model.Batch{Events: evs}}})
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		b.ReportMetric(float64(held)/float64(jsonBytes), "held/json")
		b.ReportMetric(float64(held)/convs/1024, "KiB-held/conv")
		b.ReportMetric(float64(jsonBytes)/convs/1024, "KiB-json/conv")
		runtime.KeepAlive(f)
	}
}
