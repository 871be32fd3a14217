package files

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"ohwatch/gen"
	"ohwatch/model"
	"ohwatch/reducer"
)

// benchEvents is the size of the conversation the benchmarks read: the
// 100k-event directory the loading targets are stated for.
const benchEvents = 100_000

// benchConversation generates the benchmark conversation as an SDK
// directory under a temporary directory and returns it with the total
// size of its event files.
func benchConversation(b *testing.B) (dir string, eventBytes int64) {
	return benchConversationOf(b, gen.Options{Events: benchEvents, Seed: 1})
}

// benchConversationOf is benchConversation of any generated conversation.
func benchConversationOf(b *testing.B, o gen.Options) (dir string, eventBytes int64) {
	b.Helper()
	dir = filepath.Join(b.TempDir(), "conv")
	if err := gen.WriteDir(dir, o); err != nil {
		b.Fatal(err)
	}
	names, err := readNames(filepath.Join(dir, "events"))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range names {
		info, err := os.Stat(filepath.Join(dir, "events", n))
		if err != nil {
			b.Fatal(err)
		}
		eventBytes += info.Size()
	}
	return dir, eventBytes
}

// BenchmarkReadFloor is the floor under any loader: list the events
// directory and read every file's bytes, the loader's way and with its
// parallelism, doing nothing with them.
func BenchmarkReadFloor(b *testing.B) {
	dir, size := benchConversation(b)
	events := filepath.Join(dir, "events")
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		readFloor(b, events, size)
	}
}

// readFloor lists the events directory and reads every file the loader's
// way, with its parallelism, checking that size bytes were read.
func readFloor(b *testing.B, events string, size int64) {
	names, err := readNames(events)
	if err != nil {
		b.Fatal(err)
	}
	d, err := openDirFiles(events)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	var total atomic.Int64
	parallelEach(len(names), func() func(int) {
		var s slab
		return func(i int) {
			if raw, err := d.read(names[i], &s); err == nil {
				total.Add(int64(len(raw)))
			}
		}
	})
	if total.Load() != size {
		b.Fatalf("read %d bytes, want %d", total.Load(), size)
	}
}

// BenchmarkLoadReduce is what replaying a directory costs: stream,
// decode, and append every event to the reducer's log.
func BenchmarkLoadReduce(b *testing.B) {
	dir, size := benchConversation(b)
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		log := loadLog(b, dir)
		if log.Len() != benchEvents {
			b.Fatalf("log has %d events", log.Len())
		}
	}
}

// BenchmarkLoadReduceBranched loads a 100k-event directory that was
// navigated back 100 times and, in the same rounds, the linear one of the
// same size and seed, reporting both and their ratio (branched/linear).
// Alternating the two keeps a loaded machine's noise out of the ratio.
func BenchmarkLoadReduceBranched(b *testing.B) {
	linear, _ := benchConversation(b)
	branched, _ := benchConversationOf(b, gen.Options{Events: benchEvents, Seed: 1, Branches: 100})
	var tl, tb time.Duration
	for b.Loop() {
		t0 := time.Now()
		if log := loadLog(b, linear); log.Len() != benchEvents || !log.Linear() {
			b.Fatalf("linear log: %d events", log.Len())
		}
		t1 := time.Now()
		if log := loadLog(b, branched); log.Len() != benchEvents || len(log.BranchPoints()) != 100 {
			b.Fatalf("branched log: %d events, %d branch points", log.Len(), len(log.BranchPoints()))
		}
		tl += t1.Sub(t0)
		tb += time.Since(t1)
	}
	b.ReportMetric(float64(tl.Milliseconds())/float64(b.N), "linear-ms")
	b.ReportMetric(float64(tb.Milliseconds())/float64(b.N), "branched-ms")
	b.ReportMetric(float64(tb)/float64(tl), "x-linear")
}

// loadLog streams path into a new reducer log, as the TUI and
// session.LoadLog do: read into the log's space.
func loadLog(b *testing.B, path string) *reducer.Log {
	r, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	h := r.Header()
	log := reducer.NewLog(h.Base, h.EventFiles)
	r.ReadInto(log.Space().Block)
	conv, err := r.Stream(context.Background(), func(c Chunk) { log.Append(c.Events...) })
	if err != nil {
		b.Fatal(err)
	}
	if len(conv.Warnings) != 0 {
		b.Fatalf("warnings: %q", conv.Warnings[:min(3, len(conv.Warnings))])
	}
	return log
}

// BenchmarkJSONL loads the same events from one JSONL file (the target is
// at least 150 MB/s).
func BenchmarkJSONL(b *testing.B) {
	path := filepath.Join(b.TempDir(), "conv.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := gen.WriteJSONL(f, gen.Options{Events: benchEvents, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	info, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	f.Close()
	b.SetBytes(info.Size())
	b.ResetTimer()
	for b.Loop() {
		n := 0
		if _, err := Stream(context.Background(), path, func(c Chunk) { n += len(c.Events) }); err != nil {
			b.Fatal(err)
		}
		if n != benchEvents {
			b.Fatalf("%d events", n)
		}
	}
}

// BenchmarkMemory measures the live heap of a loaded 100k-event log
// against the bytes of its event JSON (the target is at most 2x). The log
// also holds base_state.json (the full metrics lists, about 17 MB here),
// so the ratio to event and base state bytes is reported too.
func BenchmarkMemory(b *testing.B) {
	dir, size := benchConversation(b)
	base, err := os.Stat(filepath.Join(dir, "base_state.json"))
	if err != nil {
		b.Fatal(err)
	}
	var ratio float64
	for b.Loop() {
		before := liveHeap()
		log := loadLog(b, dir)
		after := liveHeap()
		ratio = float64(after-before) / float64(size)
		runtime.KeepAlive(log)
	}
	b.ReportMetric(ratio, "heap/json")
	b.ReportMetric(ratio*float64(size)/float64(size+base.Size()), "heap/(json+base)")
	b.ReportMetric(float64(size)/benchEvents, "json-B/event")
}

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkDecodeOnly isolates model.Decode over the files' bytes, already
// in memory, with the loader's parallelism: the part of LoadReduce that is
// neither I/O nor the reducer.
func BenchmarkDecodeOnly(b *testing.B) {
	dir, size := benchConversation(b)
	events := filepath.Join(dir, "events")
	names, err := readNames(events)
	if err != nil {
		b.Fatal(err)
	}
	files, _ := eventFiles(names)
	raws := make([][]byte, len(files))
	for i, f := range files {
		if raws[i], err = readFile(filepath.Join(events, f.Name), nil); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		parallelEach(len(raws), func() func(int) {
			return func(i int) {
				if _, err := model.Decode(raws[i]); err != nil {
					b.Error(err)
				}
			}
		})
	}
}

// BenchmarkFirstScreen is the time from opening a 100k-event directory to
// the first batch of events in hand (the target is under 300 ms).
func BenchmarkFirstScreen(b *testing.B) {
	dir, _ := benchConversation(b)
	b.ResetTimer()
	for b.Loop() {
		ctx, cancel := context.WithCancel(context.Background())
		got := 0
		_, err := Stream(ctx, dir, func(c Chunk) {
			got += len(c.Events)
			if got > 0 {
				cancel()
			}
		})
		cancel()
		if got == 0 || err == nil {
			b.Fatalf("got %d events, err %v", got, err)
		}
	}
}

// BenchmarkRecord is the cost of recording one event: a temporary file,
// its bytes, and a rename.
func BenchmarkRecord(b *testing.B) {
	var events []model.Event
	for raw := range gen.Events(gen.Options{Events: 1000, Seed: 1}) {
		ev, err := model.Decode(raw)
		if err != nil {
			b.Fatal(err)
		}
		events = append(events, ev)
	}
	rec, err := NewRecorder(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer rec.Close()
	i := 0
	for b.Loop() {
		ev := events[i%len(events)]
		ev.ID = eventID(i) // a new id each time: Record skips ids it holds
		if err := rec.Record(ev); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkRecorderReopen is the cost of resuming a 100k-event recording:
// every event file is read for its id, so a rerun writes nothing twice.
func BenchmarkRecorderReopen(b *testing.B) {
	dir, size := benchConversation(b)
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		rec, err := NewRecorder(dir)
		if err != nil {
			b.Fatal(err)
		}
		if rec.Len() != benchEvents || len(rec.ids) < benchEvents {
			b.Fatalf("reopened at %d with %d ids", rec.Len(), len(rec.ids))
		}
		rec.Close()
	}
}
