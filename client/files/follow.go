package files

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// Default timings of a Follower.
const (
	DefaultPoll   = 150 * time.Millisecond
	DefaultGiveUp = 5 * time.Second
)

// Follower tails an SDK conversation directory that is still being
// written. The SDK writes each event file in place (no rename), so a new
// file can be read half-written: a file that does not parse is read again
// on the next poll, and the events after it wait, so batches keep index
// order. Only when it stays unreadable for GiveUp is it reported and the
// events after it let through; it is still retried, and handed out late
// if it ever becomes readable.
type Follower struct {
	// Dir is the conversation directory or its events/ directory.
	Dir string
	// Poll is the time between directory scans (DefaultPoll when 0).
	Poll time.Duration
	// GiveUp is how long a file may stay unreadable before it becomes a
	// warning (DefaultGiveUp when 0).
	GiveUp time.Duration
	// From is the index of the first event file to hand out: the files
	// before it were read already (a finished conversation read once, now
	// growing again), so they are neither read nor handed out twice.
	From int64
}

// Follow tails dir with the default timings (see Follower.Run).
func Follow(ctx context.Context, dir string, out chan<- model.Batch) error {
	return (&Follower{Dir: dir}).Run(ctx, out)
}

// Run sends batches of new events to out, in index order, until ctx is
// done, then returns ctx's error. The first batch holds every event already
// there and a ConnState of PhaseLive; later batches are sent only when
// something new arrived. Run does not close out. A directory that does not
// exist is an error at once; an events/ directory that does not exist yet
// is waited for.
func (f *Follower) Run(ctx context.Context, out chan<- model.Batch) error {
	if info, err := os.Stat(f.Dir); err != nil {
		return fmt.Errorf("follow: %w", err)
	} else if !info.IsDir() {
		return fmt.Errorf("follow: %s is not a directory", f.Dir)
	}
	poll, giveUp := f.Poll, f.GiveUp
	if poll <= 0 {
		poll = DefaultPoll
	}
	if giveUp <= 0 {
		giveUp = DefaultGiveUp
	}
	_, eventsDir := locate(f.Dir)
	t := &tail{eventsDir: eventsDir, giveUp: giveUp, done: map[string]struct{}{}, failing: map[string]*failure{}, last: f.From - 1, from: f.From}
	ticker := time.NewTicker(poll)
	defer ticker.Stop()
	for first := true; ; first = false {
		batch := t.scan(time.Now())
		if first {
			batch.Conn = &model.ConnState{Phase: model.PhaseLive}
		}
		if first || len(batch.Events) > 0 || len(batch.Warnings) > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case out <- batch:
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
		}
	}
}

// tail is the state of a Follower between polls.
type tail struct {
	eventsDir string
	giveUp    time.Duration
	done      map[string]struct{} // files handed out
	failing   map[string]*failure // files that could not be read yet
	last      int64               // highest index handed out
	from      int64               // files below this index were read before
	listErr   string              // last listing error reported
}

// failure is an event file that could not be read: since when, and
// whether it has been reported. A reported file is still retried on every
// poll, so that an event written very slowly is late but not lost.
type failure struct {
	since    time.Time
	reported bool
}

// scan lists the directory once and returns what is new.
func (t *tail) scan(now time.Time) model.Batch {
	var batch model.Batch
	names, err := readNames(t.eventsDir)
	if err != nil {
		if msg := shortError(err); !errors.Is(err, fs.ErrNotExist) && msg != t.listErr {
			t.listErr = msg
			batch.Warnings = append(batch.Warnings, sanitize.Line("events/: cannot list: "+msg))
		}
		return batch
	}
	t.listErr = ""
	fresh := names[:0]
	for _, n := range names {
		if _, seen := t.done[n]; !seen {
			fresh = append(fresh, n)
		}
	}
	files, _ := eventFiles(fresh)
	for len(files) > 0 && files[0].Index < t.from {
		t.done[files[0].Name] = struct{}{}
		files = files[1:]
	}
	results := readParallel(files, t.eventsDir)
	for i, file := range files {
		res := results[i]
		f := t.failing[file.Name]
		if !res.ok {
			switch {
			case f == nil:
				t.failing[file.Name] = &failure{since: now}
				return batch // maybe half-written: retry it, and hold back the rest
			case f.reported:
				continue // still unreadable; the files after it go on
			case now.Sub(f.since) < t.giveUp:
				return batch
			}
			f.reported = true
			batch.Warnings = append(batch.Warnings, fmt.Sprintf("%s (unreadable for %s; the events after it go on)", res.warning, t.giveUp))
			continue
		}
		if f != nil && f.reported {
			batch.Warnings = append(batch.Warnings, sanitize.Line("events/"+file.Name+": readable at last; handed out after the events that follow it"))
		}
		delete(t.failing, file.Name)
		t.done[file.Name] = struct{}{}
		if file.Index > t.last+1 {
			batch.Warnings = append(batch.Warnings, sanitize.Line(gapWarning("events/", t.last+1, file.Index-1, file.Name)))
		}
		t.last = max(t.last, file.Index)
		if res.warning != "" {
			batch.Warnings = append(batch.Warnings, res.warning)
		}
		batch.Events = append(batch.Events, res.ev)
	}
	return batch
}

// fileResult is one event file read and decoded.
type fileResult struct {
	ev      model.Event
	warning string
	ok      bool
}

// readParallel reads and decodes files on GOMAXPROCS workers, placing each
// result at its file's position.
func readParallel(files []eventFile, dir string) []fileResult {
	results := make([]fileResult, len(files))
	parallelEach(len(files), func() func(int) {
		var s slab
		return func(i int) {
			raw, err := readFile(filepath.Join(dir, files[i].Name), &s)
			if ev, warn, ok := placeholderFor("events/"+files[i].Name, err); ok {
				results[i] = fileResult{ev: ev, warning: warn, ok: true}
				return
			}
			if err != nil {
				results[i] = fileResult{warning: sanitize.Line("events/" + files[i].Name + ": cannot read: " + shortError(err))}
				return
			}
			ev, warn, ok := decodeEvent(fileWhere("events/", files[i].Name), raw)
			results[i] = fileResult{ev: ev, warning: warn, ok: ok}
		}
	})
	return results
}
