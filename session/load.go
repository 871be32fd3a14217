package session

import (
	"context"
	"errors"
	"fmt"

	"ohwatch/client/files"
	"ohwatch/headless"
	"ohwatch/model"
	"ohwatch/reducer"
)

// LoadLog reads a recorded conversation and folds it into a log. A file
// that cannot be read at all, or of which no event can be read, is an
// error (files.Conversation.Unreadable: the first reason); what can be
// read is kept, with warnings. The load ends early, with ctx's error, when
// ctx does (Ctrl-C).
//
// The log is for a command that reads it through once (reducer.NewOnePassLog:
// `state`, `export`, headless lines); a screen that seeks in it as its
// user moves takes loadLog with reducer.NewLog.
func LoadLog(ctx context.Context, path string) (*files.Conversation, *reducer.Log, error) {
	return loadLog(ctx, path, reducer.NewOnePassLog)
}

// loadLog is LoadLog into a log newLog makes.
func loadLog(ctx context.Context, path string, newLog func(*model.BaseState, int) *reducer.Log) (*files.Conversation, *reducer.Log, error) {
	// Each batch goes into the log as it is read: holding every decoded
	// event and the buffers read until the end, to append them at once,
	// took half as much memory again as the log (464 MB of resident
	// memory against 294 MB for a 100,000-event recording).
	r, err := files.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	h := r.Header()
	log := newLog(h.Base, h.EventFiles)
	// The files are read into the log's own memory: the events go
	// nowhere but the log.
	r.ReadInto(log.Space().Block)
	read := 0
	gc := newHeadroom()
	conv, err := r.Stream(ctx, func(c files.Chunk) {
		read += files.Readable(c.Events)
		log.Append(c.Events...)
		gc.add(c.Events)
	})
	gc.done()
	if err != nil && (ctx.Err() != nil || !errors.Is(err, context.Canceled)) {
		return nil, nil, err
	}
	if err := conv.UnreadableAfter(read); err != nil {
		return nil, nil, err
	}
	return conv, log, nil
}

// LoadFailed reports a recording that could not be loaded: exit 130 when
// the user interrupted the load, else 2 (the PATH holds no conversation).
func LoadFailed(ctx context.Context, env *Env, cmd string, err error) int {
	if ctx.Err() != nil {
		fmt.Fprintf(env.Stderr, "ohwatch %s: %v\n", cmd, context.Cause(ctx))
		return InterruptedExit(ctx)
	}
	fmt.Fprintf(env.Stderr, "ohwatch %s: %v\n", cmd, err)
	return headless.ExitUsage
}

// BranchPath is the path a command follows: HEAD's, or with id the path
// through that event to its tip (reducer.Log.Tip). An id the recording
// does not hold is a usage error.
func BranchPath(log *reducer.Log, id string) (reducer.Path, error) {
	if id == "" {
		return log.HeadPath(), nil
	}
	i, ok := log.IndexOf(id)
	if !ok {
		return nil, Usage(fmt.Sprintf("--branch: no event %q in this recording", id),
			"--branch takes the id of one of its events; 'ohwatch replay PATH' shows them, leave --branch out for HEAD's path")
	}
	return log.Path(log.Tip(i)), nil
}
