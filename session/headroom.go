package session

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"ohwatch/model"
)

// A big recording's log keeps its events' JSON off the Go heap, and the
// heap holds about a sixth of that again (the index, the checkpoints, what
// the lines show). With the collector's default headroom (GOGC=100: the
// heap may grow to twice its live part before a collection), the garbage
// alone was a seventh of the JSON at the peak of a million-event load
// (459 MB of heap for 247 MB live, beside 1.48 GB of JSON). headroom
// lowers GOGC as the load grows so that the garbage stays within
// headroomShare of the JSON read, never below minHeadroom: a small
// recording loads with the default, a big one collects more often.

// headroomShare is the garbage allowed, as a share of the JSON read.
const headroomShare = 0.04

// minHeadroom is the garbage always allowed: below it GOGC stays 100.
const minHeadroom = 48 << 20

// minGOGC bounds how often the collector runs however big the log.
const minGOGC = 20

// headroom follows one load (LoadLog, or a replay's stream of chunks).
type headroom struct {
	// mu orders add, on the reader's goroutine, and done, which a
	// replay calls on its own once its lines are printed.
	mu    sync.Mutex
	ended bool  // done was called: add changes nothing more
	read  int64 // bytes of event JSON read so far
	gogc  int   // the GOGC set, 100 until lowered
	off   bool  // GOGC was not the default: set by GOGC or a command
	// limited is set while add holds a memory limit.
	limited bool
	sample  []metrics.Sample
}

// newHeadroom starts following a load; it leaves GOGC alone when it is
// not the default (the GOGC variable, or a command that chose its own).
func newHeadroom() *headroom {
	prev := debug.SetGCPercent(100)
	debug.SetGCPercent(prev)
	return &headroom{gogc: 100, off: prev != 100, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
}

// add counts the events just read and lowers GOGC when the live heap
// would let the garbage pass its share of the JSON read. GOGC is not put
// back when the load ends: the log it grew stays, and so does the ratio.
func (h *headroom) add(events []model.Event) {
	if h == nil || h.off {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ended {
		return
	}
	for i := range events {
		h.read += int64(len(events[i].Raw))
	}
	metrics.Read(h.sample)
	if h.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	live := int64(h.sample[0].Value.Uint64())
	if live == 0 {
		return
	}
	gogc, allowed := gogcFor(h.read, live)
	// Only a change of a tenth or more: SetGCPercent stops the world.
	if gogc*10 < h.gogc*9 || gogc*10 > h.gogc*11 {
		h.gogc = gogc
		debug.SetGCPercent(gogc)
	}
	if h.gogc < 100 {
		// The heap's free pages count in the resident memory until they
		// are given back: the listing and the base state's lists, read
		// first, left a third of the heap free for the rest of a
		// million-event load. A limit a little over the goal has the
		// runtime give them back; done lifts it.
		h.limited = true
		debug.SetMemoryLimit(live + allowed + live/8 + 16<<20)
	}
}

// done ends the load: the memory limit add set is lifted (what the log
// and the screens need next is not the load's to bound); GOGC stays.
func (h *headroom) done() {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ended = true
	if h.limited {
		debug.SetMemoryLimit(math.MaxInt64)
		h.limited = false
	}
}

// gogcFor is the GOGC that keeps the garbage of a heap of live bytes
// within what a load that has read bytes of JSON allows, and that
// allowance.
func gogcFor(read, live int64) (gogc int, allowed int64) {
	allowed = max(int64(float64(read)*headroomShare), minHeadroom)
	return int(min(100, max(minGOGC, 100*allowed/max(live, 1)))), allowed
}
