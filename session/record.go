package session

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"ohwatch/client/files"
	"ohwatch/format"
	"ohwatch/headless"
	"ohwatch/model"
	"ohwatch/reducer"
)

// recording is one --record run: the recorder, and what it takes to leave
// a consistent directory however the session ends — the state of what was
// written, and the latest server snapshot.
type recording struct {
	rec *files.Recorder
	id  string // the conversation's id, "" when unknown
	// state is the fold of every event taken before the first failed
	// write: the state of the recording on disk.
	state reducer.State
	// snapshot is the value of the latest full_state snapshot written as
	// base_state.json; nil when none was. snapLeaf is its leaf_event_id.
	snapshot []byte
	snapLeaf string
	// leaf is HEAD as the events taken say (reducer.NextLeaf).
	leaf string
	// start is the number of event files the directory held when it was
	// opened, and onDisk its base_state.json then (nil when none): a
	// session that adds no event leaves the base state as it found it.
	start  int64
	onDisk []byte
}

// openRecording opens dir for --record of the conversation id ("" when
// unknown): see files.OpenRecorder for what it refuses.
func openRecording(ctx context.Context, dir, id string, write func(dir, name string, data []byte) error) (*recording, error) {
	rec, err := files.OpenRecorder(ctx, dir, files.RecorderOptions{ConversationID: id, WriteFile: write})
	if err != nil {
		return nil, err
	}
	onDisk, _ := os.ReadFile(filepath.Join(dir, "base_state.json"))
	return &recording{rec: rec, id: id, state: reducer.Initial(nil, 0), start: rec.Len(), onDisk: onDisk}, nil
}

// tee writes every event of the feed to the recording as it passes (one
// file per persisted event; each full_state becomes base_state.json) and
// hands the batches on unchanged. The first write failure becomes a
// warning in its batch; the watch goes on, and finish says at the end what
// the recording lacks. When ctx ends the tee stops at once, between two
// events, so an interrupted session leaves a recording that is a prefix of
// what arrived. The returned wait function blocks until the tee is done,
// so finish can be called safely after it.
func (r *recording) tee(ctx context.Context, in <-chan model.Batch) (<-chan model.Batch, func()) {
	out := make(chan model.Batch)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(out)
		warned := false
		for {
			var b model.Batch
			var ok bool
			select {
			case b, ok = <-in:
				if !ok {
					return
				}
			case <-ctx.Done():
				return
			}
			for _, ev := range b.Events {
				if ctx.Err() != nil {
					return
				}
				if err := r.take(ev); err != nil && !warned {
					warned = true
					b.Warnings = append(b.Warnings, "recording stopped: "+err.Error())
				}
			}
			select {
			case out <- b:
			case <-ctx.Done():
				return
			}
		}
	})
	return out, wg.Wait
}

// take records one event: a full_state snapshot becomes base_state.json,
// the others event files (the recorder skips the live-only kinds and the
// ids it holds). Until a write fails, the event is folded into the state
// of the recording.
func (r *recording) take(ev model.Event) error {
	if _, failed := r.rec.Failure(); failed != nil {
		r.rec.Record(ev) // counts what is not written
		return nil
	}
	if su, ok := ev.Body.(*model.StateUpdate); ok && su.FullState {
		var snap struct {
			Value json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(ev.Raw, &snap); err == nil && len(snap.Value) > 0 {
			if err := r.rec.WriteBaseState(snap.Value); err != nil {
				return err
			}
			r.snapshot, r.snapLeaf = snap.Value, su.LeafEventID
		}
	}
	if err := r.rec.Record(ev); err != nil {
		return err
	}
	r.state = reducer.Apply(r.state, ev)
	r.leaf = reducer.NextLeaf(r.leaf, ev)
	return nil
}

// finish ends the recording, after the tee is done: it writes
// base_state.json from the latest known state when the last snapshot is
// not it (see finalBase), syncs the directory, releases the lock and, when
// anything could not be written, says so on stderr — at the end, where it
// is seen — and turns code into ExitRecordIncomplete. An interruption or a
// usage error keeps its own code.
func (r *recording) finish(stderr io.Writer, code int) int {
	missed, err := r.rec.Failure()
	var baseErr error
	if base := r.finalBase(); base != nil {
		baseErr = r.rec.WriteBaseState(base)
	}
	closeErr := r.rec.Close()
	dir := r.rec.Dir()
	also := ""
	if baseErr != nil && err != nil {
		also = "; base_state.json was not written either"
	}
	switch {
	case missed > 0:
		verb := "were"
		if missed == 1 {
			verb = "was"
		}
		fmt.Fprintf(stderr, "ohwatch: --record: %s %s not written to %s: %v%s\n", format.Plural(missed, "event"), verb, dir, err, also)
	case err != nil:
		fmt.Fprintf(stderr, "ohwatch: --record: %s is incomplete: %v%s\n", dir, err, also)
	case baseErr != nil:
		fmt.Fprintf(stderr, "ohwatch: --record: base_state.json not written to %s: %v\n", dir, baseErr)
	case closeErr != nil:
		fmt.Fprintf(stderr, "ohwatch: --record: %s may not be on disk: %v\n", dir, closeErr)
	default:
		return code
	}
	if code == headless.ExitUsage || code >= 128 {
		return code
	}
	return headless.ExitRecordIncomplete
}

// finalBase is the base_state.json that leaves the recording consistent:
// nil when the last server snapshot, already written, is the latest state
// and HEAD, or when this session added no event file (the base state on
// disk still describes them); otherwise the latest snapshot (else the base
// state the directory held, else an empty object) with the conversation's
// id and the status and HEAD the recorded events end in, marked as
// derived (model.DerivedKey) so no reader takes it for a server's
// confirmation. (A rejected confirmation leaves the server idle with no
// snapshot after it: the snapshot's HEAD is then the rejected action.)
func (r *recording) finalBase() []byte {
	if r.state.StatusSource == reducer.SourceFullState && r.snapshot != nil && r.leaf == r.snapLeaf {
		return nil
	}
	if r.rec.Len() == r.start {
		return nil
	}
	from := r.snapshot
	if from == nil {
		from = r.onDisk
	}
	fields := map[string]json.RawMessage{}
	if from != nil && json.Unmarshal(from, &fields) != nil {
		fields = map[string]json.RawMessage{}
	}
	if id := model.DashedConversationID(r.id); fields["id"] == nil && len(id) == 36 {
		fields["id"], _ = json.Marshal(id) // a uuid, as the SDK reads it
	}
	if r.state.Status != "" {
		fields["execution_status"], _ = json.Marshal(r.state.Status)
	}
	if r.leaf != "" {
		fields["leaf_event_id"], _ = json.Marshal(r.leaf)
	}
	fields[model.DerivedKey] = json.RawMessage("true")
	raw, err := json.Marshal(fields)
	if err != nil {
		return nil
	}
	return raw
}
