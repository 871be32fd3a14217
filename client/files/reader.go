package files

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"ohwatch/model"
)

// Conversation is a conversation read from disk.
type Conversation struct {
	// Path is the path it was read from, as given.
	Path string
	// ID is the normalised conversation id (32 lowercase hex) from
	// base_state.json, or from the directory name; "" when neither has one.
	ID string
	// Title is meta.json's title, base_state's, or the first line of the
	// first user message (sanitised).
	Title string
	// Base is base_state.json decoded; nil when there is none.
	Base *model.BaseState
	// ParentID is the conversation meta.json says this one was forked from
	// (forked_from_conversation_id) or delegated by
	// (parent_conversation_id), normalised; "" for neither.
	// ForkedFromEvent is the event it was forked at.
	ParentID        string
	ForkedFromEvent string
	// EventFiles is the number of event files found (0 for JSONL): the
	// events Base describes, which reducer.NewLog takes as its
	// baseEventCount.
	EventFiles int
	// Events are every event that could be read, in file order. Events
	// with the same id are all kept: the log counts duplicates.
	Events []model.Event
	// Warnings name each file (and line) that could not be read, each
	// index gap and each event kept as unknown. Sanitised.
	Warnings []string
}

// Chunk is one batch of a streaming load, with the progress so far.
type Chunk struct {
	model.Batch
	// Header is set on the first chunk only: the conversation's id, title,
	// base state and number of event files (no events, no warnings: those
	// Open met are this chunk's Warnings), so a consumer can set up its
	// log before the first event arrives.
	Header *Conversation
	// Done and Total measure the progress of the load: event files for a
	// directory or a zip, bytes for JSONL. Total is 0 when unknown.
	Done, Total int64
	// Loaded is the number of events handed out so far, this chunk's
	// included.
	Loaded int
}

// Reader is an opened conversation whose events have not been read yet.
// Open does the cheap part (layout, base state, the directory listing) so
// a caller can show the header and a progress bar at once; Stream reads
// the events.
type Reader struct {
	header Conversation
	total  int64
	// files is the number of event files to read; 0 for JSONL, whose
	// number of events is not known before it is read.
	files int
	jobs  func(ctx context.Context) <-chan job
	close func() error
	// streamed is set by the first Stream: a Reader reads once.
	streamed bool
	// space is where event files are read into (ReadInto); nil: the heap.
	space func(n int) []byte
	// readWhole reads a file of the conversation whole, within
	// maxZipEntry (BaseStateRaw); nil when it has no such files (JSONL).
	readWhole func(name string) ([]byte, error)
}

// ReadInto has Stream read event files into blocks from space, called
// from the reader's goroutines with the size of a block, instead of
// into buffers of the reader's own: a log's space (reducer.Space.Block)
// keeps each event where it was read, without a copy. The events handed
// out then lie in that memory, and whoever receives them must keep
// nothing of them past its owner's life. A JSONL file's segments are
// taken from space too (see jsonlJobs).
func (r *Reader) ReadInto(space func(n int) []byte) { r.space = space }

// Open identifies what path holds and reads its metadata: an SDK
// conversation directory (or its events/ directory), a seed-layout
// directory, a trajectory zip, or a JSONL file. A path that does not exist
// or holds no conversation is an error; everything else that is wrong is
// a warning.
func Open(path string) (*Reader, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("open conversation: %w", err)
	}
	if info.IsDir() {
		return openDir(path)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("open conversation: %s: %w", path, notRegular(info.Mode()))
	}
	if isZip(path) {
		return openZip(path)
	}
	return openJSONL(path, info.Size())
}

// isZip reports whether the file at path starts like a zip archive.
func isZip(path string) bool {
	if strings.EqualFold(filepath.Ext(path), ".zip") {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [4]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil {
		return false
	}
	return bytes.Equal(magic[:], []byte("PK\x03\x04"))
}

// Header returns the conversation as known before its events are read: id,
// title, base state and the warnings met so far.
func (r *Reader) Header() *Conversation {
	h := r.header
	h.EventFiles = r.files
	h.Warnings = append([]string(nil), r.header.Warnings...)
	return &h
}

// Total is the size of the work Stream will do, in the unit of
// Chunk.Total.
func (r *Reader) Total() int64 { return r.total }

// Close releases what Open holds (the zip file, the events directory);
// call it once Stream has returned.
func (r *Reader) Close() error {
	if r.close == nil {
		return nil
	}
	return r.close()
}

// Stream reads every event, in parallel, and calls out with ordered
// batches from the calling goroutine as they are ready; the first call
// carries the Header (and the warnings Open met) even when there are no
// events. It returns the conversation without its Events (they went to
// out) but with every warning; on ctx's end it returns what it has and
// ctx's error. A Reader streams once; a second call is an error.
func (r *Reader) Stream(ctx context.Context, out func(Chunk)) (*Conversation, error) {
	if r.streamed {
		return nil, errors.New("stream conversation: already read")
	}
	r.streamed = true
	conv := r.Header()
	first := Chunk{Header: r.Header(), Total: r.total}
	first.Header.Warnings = nil
	first.Warnings = conv.Warnings
	out(first)
	loaded := 0
	var done int64
	titled := conv.Title != ""
	err := runOrdered(ctx, r.jobs(ctx), r.space, func(p part, units int64) {
		done += units
		loaded += len(p.Events)
		conv.Warnings = append(conv.Warnings, p.Warnings...)
		if !titled {
			if t := firstUserText(p.Events); t != "" {
				// Its own copy: the events may lie in a space that goes
				// before the conversation does.
				conv.Title, titled = strings.Clone(t), true
			}
		}
		out(Chunk{Batch: model.Batch{Events: p.Events, Warnings: p.Warnings}, Done: done, Total: r.total, Loaded: loaded})
	})
	return conv, err
}

// Stream opens path and streams its events to out (see Reader.Stream).
func Stream(ctx context.Context, path string, out func(Chunk)) (*Conversation, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Stream(ctx, out)
}

// Load reads a whole conversation into memory. Only a path that does not
// exist or holds no conversation is an error: every unreadable part is a
// warning in the result, and everything readable is in Events.
func Load(path string) (*Conversation, error) {
	return LoadContext(context.Background(), path)
}

// LoadContext is Load, given up when ctx ends: it then returns what was
// read so far and ctx's error, so Ctrl-C ends even the longest load.
func LoadContext(ctx context.Context, path string) (*Conversation, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	events := make([]model.Event, 0, r.files)
	conv, err := r.Stream(ctx, func(c Chunk) {
		events = append(events, c.Events...)
	})
	if conv != nil {
		conv.Events = events
	}
	if err != nil && (ctx.Err() != nil || !errors.Is(err, context.Canceled)) {
		return conv, err
	}
	return conv, nil
}
