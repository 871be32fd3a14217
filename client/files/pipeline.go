package files

import (
	"context"
	"runtime"
	"sync"

	"ohwatch/model"
)

// cancelCheck is how many events a job decodes between two looks at its
// context.
const cancelCheck = 64

// job is one ordered unit of loading work: a run of event files or a
// segment of JSONL lines. Jobs run in parallel; their results are handed
// out in seq order.
type job struct {
	seq int
	// units is the progress the job stands for (files or bytes).
	units int64
	// run does the work, reading into s, the running goroutine's slab; it
	// gives up early, with what it has, when ctx is done, so a cancelled
	// load stops within a few events.
	run func(ctx context.Context, s *slab) part
}

// part is what a job produced: the events it decoded, in order, and the
// warnings it met.
type part struct {
	Events   []model.Event
	Warnings []string
}

// result is a finished job on its way to the collector.
type result struct {
	seq   int
	units int64
	part
}

// runOrdered runs the jobs it receives on GOMAXPROCS workers, each with
// its own slab taking its blocks from space (nil: the heap), and calls emit
// with their results in seq order (seq numbers run 0, 1, 2, … without
// holes), from the calling goroutine only. When several results are ready
// at once they are handed out together, so a slow consumer gets fewer,
// larger batches instead of falling behind. It returns when jobs is closed
// and every result is out, or with ctx's error when ctx is done first; in
// both cases no worker is still running when it returns, so whatever the
// jobs read from may be closed.
func runOrdered(ctx context.Context, jobs <-chan job, space func(n int) []byte, emit func(p part, units int64)) error {
	ctx, cancel := context.WithCancel(ctx)
	results := make(chan result, 2*runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := slab{from: space}
			for {
				var j job
				var open bool
				select {
				case <-ctx.Done():
					return
				case j, open = <-jobs:
					if !open {
						return
					}
				}
				r := result{seq: j.seq, units: j.units, part: j.run(ctx, &s)}
				select {
				case <-ctx.Done():
					return
				case results <- r:
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	pending := map[int]result{}
	next := 0
	for {
		var r result
		var open bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case r, open = <-results:
		}
		if !open {
			break
		}
		pending[r.seq] = r
		var batch part
		var units int64
		// Gather every result that is ready in order, including ones that
		// arrived while the consumer was busy.
		for drained := false; !drained; {
			for {
				ready, ok := pending[next]
				if !ok {
					break
				}
				delete(pending, next)
				next++
				if batch.Events == nil && batch.Warnings == nil {
					batch = ready.part // the common case: nothing to copy
				} else {
					batch.Events = append(batch.Events, ready.Events...)
					batch.Warnings = append(batch.Warnings, ready.Warnings...)
				}
				units += ready.units
			}
			select {
			case more, ok := <-results:
				if !ok {
					drained = true
					results = nil
					break
				}
				pending[more.seq] = more
			default:
				drained = true
			}
		}
		// A job cut short by cancellation hands back part of its events:
		// nothing received after ctx is done may go out, or the consumer
		// would see a hole.
		if err := ctx.Err(); err != nil {
			return err
		}
		if units > 0 || len(batch.Events) > 0 || len(batch.Warnings) > 0 {
			emit(batch, units)
		}
		if results == nil {
			break
		}
	}
	return ctx.Err()
}
