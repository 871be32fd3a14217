package files

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"ohwatch/model"
)

// Recorder writes a conversation as it arrives, in the SDK layout, so that
// the OpenHands SDK (and ohwatch) can load the directory: each new event
// becomes one new file events/event-NNNNN-<id>.json holding the event's
// bytes exactly as received, and base_state.json holds the latest state.
//
// The recording is differential and append-only, as the SDK's own event
// log is: an event file is written once, under a temporary name that no
// reader matches, then renamed into place, and never rewritten; a reader
// tailing the directory never sees half a file.
//
// Like the SDK, the recorder does not write the events that are never
// persisted upstream (protocol §10): full_state snapshots, which go to
// base_state.json through WriteBaseState instead; StreamingDeltaEvent;
// CondensationSummaryEvent; and ServerErrorEvent, which is a reply to a
// bad frame, not part of the conversation. Events whose id is already
// recorded (a reconnect that replays history) are not written twice.
//
// A Recorder is for one goroutine.
type Recorder struct {
	dir       string
	eventsDir string
	next      int64               // index of the next event file
	ids       map[string]struct{} // ids already recorded
	closed    bool
}

// NewRecorder opens dir for recording, creating it and its events/
// directory when needed. When dir already holds a recording the new events
// continue after its highest index.
func NewRecorder(dir string) (*Recorder, error) {
	eventsDir := filepath.Join(dir, eventsDirName)
	if err := os.MkdirAll(eventsDir, 0o755); err != nil {
		return nil, fmt.Errorf("recorder: %w", err)
	}
	names, err := readNames(eventsDir)
	if err != nil {
		return nil, fmt.Errorf("recorder: %w", err)
	}
	r := &Recorder{dir: dir, eventsDir: eventsDir, ids: map[string]struct{}{}}
	for _, n := range names {
		if f, ok := parseSDKName(n); ok {
			r.next = max(r.next, f.Index+1)
			r.ids[f.ID] = struct{}{}
		}
	}
	return r, nil
}

// Dir is the directory being recorded into.
func (r *Recorder) Dir() string { return r.dir }

// Len is the number of event files in the recording: the index the next
// event will get.
func (r *Recorder) Len() int64 { return r.next }

// Persisted reports whether an event of this kind belongs in a recording:
// false for the live-only events the SDK never writes to disk.
func Persisted(ev model.Event) bool {
	switch b := ev.Body.(type) {
	case *model.StateUpdate:
		return !b.FullState
	case *model.StreamingDelta, *model.ServerError, *model.CondensationSummary:
		return false
	}
	switch ev.Kind {
	case "StreamingDeltaEvent", "ServerErrorEvent", "CondensationSummaryEvent":
		return false
	}
	return true
}

// Record writes ev as the next event file, unless it is live-only (see
// Persisted) or its id is already recorded, in which case it does nothing.
// The file is readable by its owner only: conversations hold commands,
// outputs and file contents.
func (r *Recorder) Record(ev model.Event) error {
	if r.closed {
		return errors.New("recorder: closed")
	}
	if !Persisted(ev) {
		return nil
	}
	if len(ev.Raw) == 0 {
		return errors.New("recorder: event has no raw bytes")
	}
	if ev.ID != "" {
		if _, dup := r.ids[ev.ID]; dup {
			return nil
		}
	}
	name := fmt.Sprintf("event-%05d-%s.json", r.next, fileID(ev))
	if err := writeAtomic(r.eventsDir, name, ev.Raw); err != nil {
		return fmt.Errorf("recorder: %w", err)
	}
	r.next++
	if ev.ID != "" {
		r.ids[ev.ID] = struct{}{}
	}
	return nil
}

// fileID is the id part of an event's file name. The SDK only loads names
// whose id is hex and dashes (at least 8), so an id that is not (empty,
// "<id>-summary", or hostile, with slashes) is replaced by a hash of the
// event's bytes; the event's own id stays in its JSON.
func fileID(ev model.Event) string {
	if len(ev.ID) >= 8 && len(ev.ID) <= 64 {
		ok := true
		for i := 0; i < len(ev.ID); i++ {
			ok = ok && isIDByte(ev.ID[i])
		}
		if ok {
			return ev.ID
		}
	}
	sum := sha256.Sum256(ev.Raw)
	h := hex.EncodeToString(sum[:16])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// WriteBaseState replaces base_state.json with raw, the value of the
// latest full_state snapshot (or a REST ConversationInfo), atomically.
func (r *Recorder) WriteBaseState(raw []byte) error {
	if r.closed {
		return errors.New("recorder: closed")
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return errors.New("recorder: base state is not a JSON object")
	}
	if err := writeAtomic(r.dir, "base_state.json", trimmed); err != nil {
		return fmt.Errorf("recorder: %w", err)
	}
	return nil
}

// Close makes the recording durable (it syncs the directories, so the
// renames survive a crash) and ends it; Record and WriteBaseState fail
// after Close.
func (r *Recorder) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	return errors.Join(syncDir(r.eventsDir), syncDir(r.dir))
}

// writeAtomic writes data to dir/name through a temporary file in the same
// directory and a rename, so no reader ever sees a partial file. The
// temporary name starts with a dot and ends in .tmp: no event file pattern
// matches it.
func writeAtomic(dir, name string, data []byte) error {
	tmp, err := os.CreateTemp(dir, "."+name+".*.tmp")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// syncDir flushes a directory's entries to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}
