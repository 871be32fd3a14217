package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"ohwatch/client/files"
	"ohwatch/headless"
	"ohwatch/model"
	"ohwatch/reducer"
)

// Replay shows a recording: the reader streams it in order while the
// screen is already up, so a long recording shows its first screen at
// once and fills in behind it.
func Replay(ctx context.Context, env *Env, o Options, path string) int {
	r, err := files.Open(path)
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch replay: %v\n", err)
		return headless.ExitUsage
	}
	header := r.Header()
	// base_state.json describes the end of the recording: the reducer
	// applies it at the last event file.
	log := newReplayLog(o)(header.Base, header.EventFiles)
	// Read into the log's own memory: what the feed's other readers (the
	// recorder, the OTLP exporter) keep of an event, they keep no longer
	// than present holds the log.
	r.ReadInto(log.Space().Block)
	feed := make(chan model.Batch, 4)
	var gc *headroom
	if o.Headless {
		// The lines are printed once the recording is read, and the
		// load's bound on the heap holds until they are: lifted when
		// the stream ended, the heap grew by a fiftieth of the JSON
		// while they were printed, the peak of a million-event replay.
		gc = newHeadroom()
		defer gc.done()
	}
	go streamInto(ctx, r, feed, gc)
	return present(ctx, env, o, conversation{
		id:        header.ID,
		title:     TitleOf(header.Title, header.ID, path),
		source:    "replay " + path,
		log:       log,
		feed:      feed,
		recording: true,
		fromFiles: true,
		traceID:   traceKey(header.ID, path),
		links:     newLocalLinks(path, header.ID),
	})
}

// ReplayBranch prints the headless lines of a recording along the branch
// through event id: the whole recording is read first, to know its tree.
func ReplayBranch(ctx context.Context, env *Env, o Options, path, id string) int {
	conv, log, err := loadLog(ctx, path, newReplayLog(o))
	if err != nil {
		return LoadFailed(ctx, env, "replay", err)
	}
	if _, err := BranchPath(log, id); err != nil {
		return ReportUsage(env.Stderr, "replay", err)
	}
	feed := make(chan model.Batch, 1)
	if len(conv.Warnings) > 0 {
		feed <- model.Batch{Warnings: conv.Warnings}
	}
	close(feed)
	return present(ctx, env, o, conversation{
		id:        conv.ID,
		title:     TitleOf(conv.Title, conv.ID, path),
		source:    "replay " + path,
		log:       log,
		feed:      feed,
		recording: true,
		fromFiles: true,
		branch:    id,
		traceID:   traceKey(conv.ID, path),
	})
}

// newReplayLog is how a replay makes its log: headless lines read it
// through once (reducer.NewOnePassLog), the TUI seeks in it as its user
// moves.
func newReplayLog(o Options) func(*model.BaseState, int) *reducer.Log {
	if o.Headless {
		return reducer.NewOnePassLog
	}
	return reducer.NewLog
}

// streamInto streams the recording r into feed, in order, one batch per
// chunk with its progress, then closes r and feed. A read error that was
// not an interruption becomes a warning batch: what was read is kept.
//
// gc, when not nil, follows the load and is the caller's to end (after
// what it does with the whole recording); else the load's own ends with
// the stream.
func streamInto(ctx context.Context, r *files.Reader, feed chan<- model.Batch, gc *headroom) {
	defer close(feed)
	defer r.Close()
	streamChunksWith(ctx, r, feed, gc)
}

// streamChunks is streamInto without the closing: a conversation opened
// from the fleet is followed once it has been read.
func streamChunks(ctx context.Context, r *files.Reader, feed chan<- model.Batch) {
	streamChunksWith(ctx, r, feed, nil)
}

// streamChunksWith is streamChunks following the load with gc (see
// streamInto).
func streamChunksWith(ctx context.Context, r *files.Reader, feed chan<- model.Batch, gc *headroom) {
	if gc == nil {
		gc = newHeadroom()
		defer gc.done()
	}
	_, err := r.Stream(ctx, func(c files.Chunk) {
		b := c.Batch
		b.Progress = &model.Progress{Done: c.Done, Total: c.Total, Loaded: c.Loaded}
		sendBatch(ctx, feed, b)
		gc.add(c.Events)
	})
	if err != nil && ctx.Err() == nil {
		sendBatch(ctx, feed, model.Batch{Warnings: []string{err.Error()}})
	}
}

// Follow tails a conversation directory that a local agent is still
// writing, as a live source; base_state.json, which the SDK rewrites on
// every change, stands in for REST when a finished needs confirming.
func Follow(ctx context.Context, env *Env, o Options, dir string) int {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return ReportUsage(env.Stderr, "replay", Usage(fmt.Sprintf("--follow: %s is not a conversation directory", dir),
			"--follow tails a directory an agent is writing; replay a file without it"))
	}
	feed := make(chan model.Batch, 4)
	go func() {
		defer close(feed)
		if err := files.Follow(ctx, dir, feed); err != nil && ctx.Err() == nil {
			fmt.Fprintf(env.Stderr, "ohwatch replay --follow: %v\n", err)
		}
	}()
	confirm := func(context.Context) (string, error) {
		raw, err := os.ReadFile(filepath.Join(dir, "base_state.json"))
		if err != nil {
			return "", err
		}
		base, err := model.DecodeBaseState(raw)
		if err != nil {
			return "", err
		}
		if base.Derived {
			// ohwatch's own recorder wrote it from the events: no agent
			// has confirmed anything.
			return "", errors.New("base_state.json was derived from the events, not written by the agent")
		}
		return base.ExecutionStatus, nil
	}
	return present(ctx, env, o, conversation{
		title:         TitleOf("", "", dir),
		source:        "follow " + dir,
		log:           reducer.NewLog(nil, 0),
		feed:          feed,
		live:          true,
		fromFiles:     true,
		confirm:       confirm,
		confirmSource: "base_state.json",
		// base_state.json is a local file: it confirms as soon as it says
		// finished, not after the grace period meant for a server.
		confirmPoll: files.DefaultPoll,
		traceID:     traceKey("", dir),
	})
}

// TitleOf picks what the header names the conversation by.
func TitleOf(title, id, path string) string {
	switch {
	case title != "":
		return title
	case id != "":
		return id
	}
	return filepath.Base(filepath.Clean(path))
}
