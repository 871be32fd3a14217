package headless

import "ohwatch/reducer"

// jsonAhead makes the event part of each JSON line of a recording a batch
// ahead, on another goroutine, while the lines are printed: making each
// event terminal-safe and escaped is most of a `replay --headless --json`
// once the lines come from the load (loadlines.go), and it needs nothing
// the lines' order does.
type jsonAhead struct {
	full chan madeBatch
	free chan madeBatch
	done chan struct{}
	cur  madeBatch
	k    int  // the next event of cur
	held bool // cur is a batch taken from full
}

// madeBatch is the event parts of consecutive events from first: the
// k-th ends at ends[k] in buf.
type madeBatch struct {
	first int
	buf   []byte
	ends  []int
}

// Batches of event parts: how many events each, and how many there are
// (one being printed, one handed over, one being made).
const (
	madeEvents  = 512
	madeBatches = 3
)

// startJSONAhead starts making the event parts of events 0..n-1 of log.
func startJSONAhead(log *reducer.Log, n int) *jsonAhead {
	a := &jsonAhead{full: make(chan madeBatch), free: make(chan madeBatch, madeBatches), done: make(chan struct{})}
	for range madeBatches {
		a.free <- madeBatch{}
	}
	go a.make(log, reducer.Path{{From: 0, To: n - 1}})
	return a
}

// make fills the free batches with the event parts of p's events, in
// order, until they are made or done is closed.
func (a *jsonAhead) make(log *reducer.Log, p reducer.Path) {
	defer close(a.full)
	var e eventJSON
	var b madeBatch
	filling := false
	for i, raw := range log.Raws(p) {
		if !filling {
			select {
			case b = <-a.free:
			case <-a.done:
				return
			}
			b.first, b.buf, b.ends, filling = i, b.buf[:0], b.ends[:0], true
		}
		b.buf = e.appendEvent(b.buf, raw, log.Decoded(i))
		b.ends = append(b.ends, len(b.buf))
		if len(b.ends) == madeEvents {
			select {
			case a.full <- b:
			case <-a.done:
				return
			}
			filling = false
		}
	}
	if filling {
		select {
		case a.full <- b:
		case <-a.done:
		}
	}
}

// event returns the event part of event i's line, asked in order; nil
// when it was not made (or a is nil: the caller makes it).
func (a *jsonAhead) event(i int) []byte {
	if a == nil {
		return nil
	}
	if a.held && a.k == len(a.cur.ends) {
		a.free <- a.cur
		a.held = false
	}
	if !a.held {
		b, ok := <-a.full
		if !ok {
			return nil
		}
		a.cur, a.k, a.held = b, 0, true
	}
	if i != a.cur.first+a.k {
		return nil
	}
	start := 0
	if a.k > 0 {
		start = a.cur.ends[a.k-1]
	}
	a.k++
	return a.cur.buf[start:a.cur.ends[a.k-1]]
}

// stop ends the making and waits until it has ended.
func (a *jsonAhead) stop() {
	close(a.done)
	for range a.full {
	}
}
