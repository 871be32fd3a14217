package fleetsource

import (
	"context"
	"sync"
	"time"

	"ohwatch/model"
)

// collector sits between the sources of a fleet and its consumer. Sources
// never block on the consumer: they add updates, and one sender goroutine
// hands everything that accumulated over a window to the consumer as one
// slice. Nothing is dropped; a slow consumer gets a larger slice. Updates
// of one conversation that arrive within a window join into one, unless a
// connection change starts a new one (Conn took effect before the events
// of its batch, as in a single-conversation feed).
type collector struct {
	mu       sync.Mutex
	pending  []model.FleetUpdate
	last     map[model.ConversationRef]int // index in pending of a ref's last update
	finished bool
	wake     chan struct{}
	window   time.Duration
}

func newCollector(window time.Duration) *collector {
	return &collector{last: map[model.ConversationRef]int{}, wake: make(chan struct{}, 1), window: window}
}

// add queues updates without ever blocking. Updates added together
// travel in the same slice: a listing's conversations appear at once.
func (c *collector) add(ups ...model.FleetUpdate) {
	c.mu.Lock()
	for _, u := range ups {
		c.addLocked(u)
	}
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// addLocked queues one update, joining it to the conversation's last one
// unless it changes the connection. Callers hold mu.
func (c *collector) addLocked(u model.FleetUpdate) {
	if i, ok := c.last[u.Ref]; ok && u.Batch.Conn == nil {
		p := &c.pending[i]
		if u.Meta != nil {
			p.Meta = u.Meta
		}
		p.Batch.Events = append(p.Batch.Events, u.Batch.Events...)
		p.Batch.Warnings = append(p.Batch.Warnings, u.Batch.Warnings...)
		if u.Batch.Progress != nil {
			p.Batch.Progress = u.Batch.Progress
		}
		if u.Batch.Runtime != nil {
			p.Batch.Runtime = u.Batch.Runtime
		}
		return
	}
	c.last[u.Ref] = len(c.pending)
	c.pending = append(c.pending, u)
}

// finish says nothing more will be added: the sender closes its channel
// once everything queued is delivered.
func (c *collector) finish() {
	c.mu.Lock()
	c.finished = true
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// take removes everything queued.
func (c *collector) take() ([]model.FleetUpdate, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.pending
	c.pending = nil
	clear(c.last)
	return out, c.finished
}

// send delivers the updates queued, at most one slice per window: the
// first after a quiet spell at once, later ones gathered until a window
// has passed since the last, until the collector is finished and drained
// or ctx ends; it closes out either way.
func (c *collector) send(ctx context.Context, out chan<- []model.FleetUpdate) {
	defer close(out)
	timer := time.NewTimer(c.window)
	timer.Stop()
	var last time.Time // when the last slice was handed over
	for {
		select {
		case <-c.wake:
		case <-ctx.Done():
			return
		}
		if wait := c.window - time.Since(last); !last.IsZero() && wait > 0 {
			timer.Reset(wait)
			select {
			case <-timer.C:
			case <-ctx.Done():
				return
			}
		}
		ups, finished := c.take()
		if len(ups) > 0 {
			select {
			case out <- ups:
			case <-ctx.Done():
				return
			}
			last = time.Now()
		}
		if finished {
			// Nothing is added once finished is set (every source has
			// returned), but deliver anything that slipped in meanwhile.
			if rest, _ := c.take(); len(rest) > 0 {
				select {
				case out <- rest:
				case <-ctx.Done():
				}
			}
			return
		}
	}
}
