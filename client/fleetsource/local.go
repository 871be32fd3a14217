package fleetsource

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"ohwatch/client/files"
	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// LocalOptions tunes a local source. The zero value is right for real use;
// tests shrink the durations.
type LocalOptions struct {
	// Poll is the time between two looks at the root: new directories, and
	// conversations that grew (DefaultRootPoll when 0).
	Poll time.Duration
	// Follow is the poll of a conversation that grows (files.DefaultPoll
	// when 0).
	Follow time.Duration
	// Quiet is how long a followed conversation may bring nothing new
	// before it is only looked at with the root again (DefaultQuiet when 0).
	Quiet time.Duration
	// Readers is how many conversations are read at once (DefaultReaders
	// when 0); each read is parallel itself.
	Readers int
	// MaxFollowed is the most conversations followed at once, as a
	// server's MaxStreams (DefaultMaxStreams when 0): one growing past it
	// is read once and followed when a follower is free.
	MaxFollowed int
}

// Local defaults. A root of a thousand conversations costs a thousand
// stat calls per Poll once read, not a thousand directory scans.
const (
	DefaultRootPoll = time.Second
	DefaultQuiet    = 30 * time.Second
	DefaultReaders  = 2
)

// local is every conversation directory of a root.
type local struct {
	root string
	opts LocalOptions

	mu    sync.Mutex
	convs map[string]*localConv // by directory
	paths map[string]string     // id → directory
}

// localConv is one conversation directory and how far it has been read.
type localConv struct {
	ref  model.ConversationRef
	dir  string
	meta *model.ConversationMeta
	// events is the number of event files the listing counted, and stats
	// base_state.json's stats: what shows a conversation not read.
	events int
	stats  *model.Stats
	// state: reading (queued or being read), following (a Follower runs),
	// resting (read; looked at with the root).
	state localState
	// from is the number of event files handed out; stamp the events/
	// directory's modification time when that was known.
	from  int64
	stamp time.Time
}

type localState int

const (
	stateReading localState = iota
	stateFollowing
	stateResting
)

// Local watches every conversation directory of root: each is listed (its
// summary is its listing), then read once with the files readers (and
// said to be done: PhaseDone, its last status final, until it grows), a few
// at a time, most recently active first; a conversation being written
// (its events/ directory changed within Quiet), or whose events/ directory
// changes after it was read, is followed (files.Follower) until it has
// been quiet a while. Directories that appear in the root are noticed at
// the next look. Nothing read is kept: events go to the consumer.
func Local(root string, opts LocalOptions) *LocalSource {
	if opts.Poll <= 0 {
		opts.Poll = DefaultRootPoll
	}
	if opts.Follow <= 0 {
		opts.Follow = files.DefaultPoll
	}
	if opts.Quiet <= 0 {
		opts.Quiet = DefaultQuiet
	}
	if opts.Readers <= 0 {
		opts.Readers = DefaultReaders
	}
	if opts.MaxFollowed <= 0 {
		opts.MaxFollowed = DefaultMaxStreams
	}
	return &LocalSource{l: &local{root: root, opts: opts, convs: map[string]*localConv{}, paths: map[string]string{}}}
}

// LocalSource is a local conversations root as a fleet source.
type LocalSource struct{ l *local }

// Label implements Source: the root's path.
func (s *LocalSource) Label() string { return s.l.root }

// Kind implements Source.
func (s *LocalSource) Kind() model.SourceKind { return model.SourceLocal }

// Path returns the directory of the conversation with that id, "" when the
// root holds none: opening a conversation reads it from there.
func (s *LocalSource) Path(id string) string {
	s.l.mu.Lock()
	defer s.l.mu.Unlock()
	return s.l.paths[id]
}

// Growing reports whether the conversation with that id is being written
// now (followed), rather than read and at rest: opening it then follows
// it live, where a conversation at rest opens as a recording.
func (s *LocalSource) Growing(id string) bool {
	s.l.mu.Lock()
	defer s.l.mu.Unlock()
	c := s.l.convs[s.l.paths[id]]
	return c != nil && c.state == stateFollowing
}

// Run implements Source.
func (s *LocalSource) Run(ctx context.Context, emit func(...model.FleetUpdate)) {
	l := s.l
	self := sourceRef(s)
	queue := make(chan *localConv, 1<<16)
	var wg sync.WaitGroup
	defer wg.Wait()
	for range l.opts.Readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case c := <-queue:
					l.read(ctx, c, emit)
				}
			}
		}()
	}
	failing := ""
	for first := true; ; first = false {
		fresh, err := l.look(ctx, first)
		// Every listing first, in one go: the first screen shows the
		// whole root before any conversation is read.
		listing := make([]model.FleetUpdate, len(fresh))
		for i, c := range fresh {
			listing[i] = model.FleetUpdate{Ref: c.ref, Meta: c.meta}
		}
		emit(listing...)
		// The source's state after its listing: a watch that waits for
		// every source to have listed knows the listing is in.
		switch {
		case err != nil && rootTrouble(err) != failing:
			// Said once per trouble: the first look and the later ones
			// word the same missing root differently.
			failing = rootTrouble(err)
			emit(model.FleetUpdate{Ref: self, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseReconnecting, Reason: sanitize.Line(failing)}}})
		case err == nil && (first || failing != ""):
			failing = ""
			emit(model.FleetUpdate{Ref: self, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseLive}}})
		}
		for _, c := range fresh {
			if time.Since(eventsStamp(c.dir)) < l.opts.Quiet && l.tryFollow(c) {
				// Being written now: a one-shot read could meet a file
				// half-written, which the follower reads again.
				wg.Add(1)
				go func() { defer wg.Done(); l.follow(ctx, c, emit) }()
				continue
			}
			select {
			case queue <- c:
			default:
				// More new directories than the queue holds: read this one
				// on its own rather than block the look.
				wg.Add(1)
				go func() { defer wg.Done(); l.read(ctx, c, emit) }()
			}
		}
		for _, c := range l.grown() {
			wg.Add(1)
			go func() { defer wg.Done(); l.follow(ctx, c, emit) }()
		}
		t := time.NewTimer(l.opts.Poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// RootMissing is the reason a local source gives while its root does not
// exist: it looks again every poll and lists the root once it is there.
const RootMissing = "does not exist (listed once created)"

// rootTrouble words a failed look at the root for a line that names the
// root already: as ls says it ("does not exist"), not the error's chain.
func rootTrouble(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return RootMissing
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}

// look lists the root and returns the conversations not known before,
// most recently active first. The first look summarises them in parallel
// (files.ListContext); later ones summarise the few new directories.
func (l *local) look(ctx context.Context, first bool) ([]*localConv, error) {
	var sums []files.Summary
	if first {
		var err error
		if sums, err = files.ListContext(ctx, l.root); err != nil {
			return nil, err
		}
	} else {
		entries, err := os.ReadDir(l.root)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			dir := filepath.Join(l.root, e.Name())
			l.mu.Lock()
			_, known := l.convs[dir]
			l.mu.Unlock()
			if !known && e.IsDir() && files.IsConversationDir(dir) {
				sums = append(sums, files.Summarise(dir))
			}
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fresh := make([]*localConv, 0, len(sums))
	for _, s := range sums {
		if _, known := l.convs[s.Path]; known {
			continue
		}
		// The directory's name is the id: unique in the root and stable,
		// even while base_state.json is not written yet (the SDK names
		// the directory after the conversation's id).
		id := filepath.Base(s.Path)
		c := &localConv{ref: model.ConversationRef{Source: l.root, Kind: model.SourceLocal, ID: id}, dir: s.Path, meta: localMeta(s), events: s.Events, stats: s.Stats}
		l.convs[s.Path] = c
		l.paths[id] = s.Path
		fresh = append(fresh, c)
	}
	return fresh, nil
}

// localMeta is the listing of a conversation from its summary.
func localMeta(s files.Summary) *model.ConversationMeta {
	return &model.ConversationMeta{Title: model.CapBytes(s.Title, model.MaxTitleBytes), Status: model.CapBytes(s.Status, model.MaxStatusBytes), BaseStatus: s.Status != "" && !s.StatusDerived, UpdatedAt: s.LastActivity,
		ParentID: s.ParentID, ForkedFromEvent: s.ForkedFromEvent}
}

// read reads a conversation once, handing its events on chunk by chunk
// with the progress of the read, then leaves it resting.
func (l *local) read(ctx context.Context, c *localConv, emit func(...model.FleetUpdate)) {
	stamp := eventsStamp(c.dir)
	if l.listSettled(c, stamp, emit) {
		return
	}
	r, err := files.Open(c.dir)
	if err != nil {
		emit(model.FleetUpdate{Ref: c.ref, Batch: model.Batch{Warnings: []string{sanitize.Line(err.Error())}}})
		l.rest(c, 0, stamp)
		return
	}
	defer r.Close()
	n := int64(r.Header().EventFiles)
	first := true
	_, err = r.Stream(ctx, func(ch files.Chunk) {
		b := ch.Batch
		b.Progress = &model.Progress{Done: ch.Done, Total: ch.Total, Loaded: ch.Loaded}
		if first {
			b.Conn = &model.ConnState{Phase: model.PhaseLive}
			first = false
		}
		emit(model.FleetUpdate{Ref: c.ref, Batch: b})
	})
	if err != nil && ctx.Err() == nil {
		emit(model.FleetUpdate{Ref: c.ref, Batch: model.Batch{Warnings: []string{sanitize.Line(err.Error())}}})
	}
	l.rest(c, n, stamp)
	if ctx.Err() == nil {
		emit(rested(c.ref))
	}
}

// rested says a conversation has nothing more for now: a recording whose
// last status is final, until it grows again (PhaseLive once more).
func rested(ref model.ConversationRef) model.FleetUpdate {
	return model.FleetUpdate{Ref: ref, Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseDone}}}
}

// rest records that c was read up to from event files, as its events/
// directory stood at stamp.
func (l *local) rest(c *localConv, from int64, stamp time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c.state, c.from, c.stamp = stateResting, from, stamp
}

// grown returns the resting conversations whose events/ directory changed
// since they were read, marked as followed.
func (l *local) grown() []*localConv {
	l.mu.Lock()
	resting := make([]*localConv, 0, len(l.convs))
	for _, c := range l.convs {
		if c.state == stateResting {
			resting = append(resting, c)
		}
	}
	l.mu.Unlock()
	var out []*localConv
	for _, c := range resting {
		if stamp := eventsStamp(c.dir); !stamp.Equal(c.stamp) && l.tryFollow(c) {
			out = append(out, c)
		}
	}
	return out
}

// tryFollow marks c followed unless MaxFollowed are already: one that
// grows past the limit is noticed again at a later look, once a follower
// has come to rest.
func (l *local) tryFollow(c *localConv) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, o := range l.convs {
		if o.state == stateFollowing {
			n++
		}
	}
	if n >= l.opts.MaxFollowed {
		return false
	}
	c.state = stateFollowing
	return true
}

// follow tails a conversation that grows, from the event files already
// handed out, until it has brought nothing new for Quiet; it then rests
// again, with its listing read anew (its base_state.json may have changed).
func (l *local) follow(ctx context.Context, c *localConv, emit func(...model.FleetUpdate)) {
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l.mu.Lock()
	from := c.from
	l.mu.Unlock()
	feed := make(chan model.Batch)
	go func() {
		defer close(feed)
		if err := (&files.Follower{Dir: c.dir, Poll: l.opts.Follow, From: from}).Run(fctx, feed); err != nil && fctx.Err() == nil {
			emit(model.FleetUpdate{Ref: c.ref, Batch: model.Batch{Warnings: []string{sanitize.Line(err.Error())}}})
		}
	}()
	// Quiet counts from the follower's first scan, not from its start:
	// reading what piled up (a whole listed conversation) can take longer
	// than Quiet, and a follow that ended before its first scan rested
	// with nothing read and its stamp taken: never read again.
	quiet := time.NewTimer(l.opts.Quiet)
	quiet.Stop()
	defer quiet.Stop()
	scanned := false
	var stamp time.Time
	n := from
	for {
		select {
		case b, ok := <-feed:
			if !ok {
				l.rest(c, n, stamp)
				if ctx.Err() == nil {
					l.relist(c, emit)
					emit(rested(c.ref))
				}
				return
			}
			n += int64(len(b.Events))
			if len(b.Events) > 0 || len(b.Warnings) > 0 || b.Conn != nil {
				emit(model.FleetUpdate{Ref: c.ref, Batch: b})
			}
			if len(b.Events) > 0 || !scanned {
				quiet.Reset(l.opts.Quiet)
				scanned = true
			}
		case <-quiet.C:
			// The stamp before the last scan: anything written after it
			// shows as a change at the next look.
			stamp = eventsStamp(c.dir)
			cancel()
		}
	}
}

// relist reads a conversation's summary again and hands on its listing if
// it changed.
func (l *local) relist(c *localConv, emit func(...model.FleetUpdate)) {
	meta := localMeta(files.Summarise(c.dir))
	l.mu.Lock()
	same := sameListing(c.meta, meta)
	c.meta = meta
	l.mu.Unlock()
	if !same {
		emit(model.FleetUpdate{Ref: c.ref, Meta: meta})
	}
}

// eventsStamp is the modification time of a conversation's events/
// directory, which changes when an event file is added; zero when it
// cannot be read.
func eventsStamp(dir string) time.Time {
	fi, err := os.Stat(filepath.Join(dir, "events"))
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}
