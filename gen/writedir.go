package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// WriteDir writes the conversation in the agent-server's on-disk layout
// under dir (created if needed): base_state.json with the full Metrics
// lists, and events/event-NNNNN-<event id>.json, one compact event per
// file. Files are written by a pool of workers while the events are being
// generated, since a hundred thousand small files are bound by system
// calls rather than by generation.
func WriteDir(dir string, o Options) error {
	c := newConvo(o, true)
	if err := writeEvents(dir, o.Events, c.next); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "base_state.json"), c.b.BaseState(), 0o644)
}

// writeEvents writes n events from next as dir/events/event-NNNNN-<id>.json
// (and the event log's lock file, as upstream leaves it).
func writeEvents(dir string, n int, next func() []byte) error {
	events := filepath.Join(dir, "events")
	if err := os.MkdirAll(events, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(events, ".eventlog.lock"), nil, 0o644); err != nil {
		return err
	}
	type job struct {
		index int
		raw   []byte
	}
	jobs := make(chan job, 256)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		failed   = make(chan struct{})
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
			close(failed)
		}
	}
	workers := max(4, 2*runtime.GOMAXPROCS(0))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				id, ok := eventID(j.raw)
				if !ok {
					fail(fmt.Errorf("gen: event %d does not start with its id", j.index))
					continue
				}
				name := fmt.Sprintf("event-%05d-%s.json", j.index, id)
				if err := os.WriteFile(filepath.Join(events, name), j.raw, 0o644); err != nil {
					fail(err)
				}
			}
		}()
	}
produce:
	for i := 0; i < n; i++ {
		select {
		case jobs <- job{index: i, raw: next()}:
		case <-failed:
			break produce
		}
	}
	close(jobs)
	wg.Wait()
	return firstErr
}

// eventID reads the id a Builder writes first in every event.
func eventID(raw []byte) (string, bool) {
	const prefix = `{"id":"`
	if len(raw) < len(prefix)+36 || string(raw[:len(prefix)]) != prefix {
		return "", false
	}
	return string(raw[len(prefix) : len(prefix)+36]), true
}
