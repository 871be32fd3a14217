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
// A recording holds one conversation: the recorder refuses a directory
// that holds another (ErrOtherConversation) and holds an exclusive lock on
// it while it records (ErrRecordingBusy), so two recorders never mix their
// events. After the first failed write (a full disk) nothing more is
// written, so the recording stays a gap-free prefix of the conversation;
// the events that could not be written are counted (Failure).
//
// A Recorder is for one goroutine.
type Recorder struct {
	dir       string
	eventsDir string
	next      int64               // index of the next event file
	ids       map[string]struct{} // ids already recorded
	lock      *dirLock
	write     func(dir, name string, data []byte) error
	failed    error // the first write that failed
	missed    int   // events not written because of it
	closed    bool
	// resumed: the directory held events when it was opened, and the
	// first event recorded since must be one of them (see Record).
	resumed bool
}

// Dir is the directory being recorded into.
func (r *Recorder) Dir() string { return r.dir }

// Len is the number of event files in the recording: the index the next
// event will get.
func (r *Recorder) Len() int64 { return r.next }

// Record writes ev as the next event file, unless it is live-only (see
// model.Persisted: the SDK never writes it to disk) or its id is already
// recorded, in which case it does nothing. The write that fails returns its error; from then on Record writes
// nothing and returns nil, counting each event it should have written
// (Failure), so the caller can go on watching and say at the end what the
// recording lacks.
func (r *Recorder) Record(ev model.Event) error {
	if r.closed {
		return errors.New("recorder: closed")
	}
	if !model.Persisted(ev) {
		return nil
	}
	if len(ev.Raw) == 0 {
		return errors.New("recorder: event has no raw bytes")
	}
	key := recordKey(ev)
	_, dup := r.ids[key]
	if r.resumed && r.failed == nil {
		// Every source streams a conversation from its first event, so a
		// stream that resumes this recording starts with an event it
		// holds. One that does not is another conversation, whose id was
		// not known when the directory was opened: nothing of it is
		// written.
		r.resumed = false
		if !dup {
			r.failed = fmt.Errorf("recorder: %s %w: its first event is not in it", r.dir, ErrOtherConversation)
			r.missed++
			return r.failed
		}
	}
	if dup {
		return nil
	}
	if r.failed != nil {
		r.missed++
		return nil
	}
	name := fmt.Sprintf("event-%05d-%s.json", r.next, fileID(ev))
	if err := r.write(r.eventsDir, name, ev.Raw); err != nil {
		r.failed = fmt.Errorf("recorder: %w", err)
		r.missed++
		return r.failed
	}
	r.next++
	r.ids[key] = struct{}{}
	return nil
}

// recordKey is what tells a recorded event apart: its id, or for an event
// without one the hash of its bytes that its file name carries.
func recordKey(ev model.Event) string {
	if ev.ID != "" {
		return ev.ID
	}
	return fileID(ev)
}

// fileID is the id part of an event's file name. The SDK only loads names
// whose id is hex and dashes (at least 8), so an id that is not (empty,
// "<id>-summary", or hostile, with slashes) is replaced by a hash of the
// event's bytes; the event's own id stays in its JSON.
func fileID(ev model.Event) string {
	if len(ev.ID) >= 8 && len(ev.ID) <= 64 {
		ok := true
		for i := 0; i < len(ev.ID); i++ {
			ok = ok && idBytes[ev.ID[i]]
		}
		if ok {
			return ev.ID
		}
	}
	sum := sha256.Sum256(ev.Raw)
	return model.DashedConversationID(hex.EncodeToString(sum[:16]))
}

// WriteBaseState replaces base_state.json with raw, the value of the
// latest full_state snapshot (or a REST ConversationInfo), atomically. It
// is tried even after a failed write (a base state is small, and it is
// what makes the recording's end consistent); its own failure stops the
// event files as a failed Record does.
func (r *Recorder) WriteBaseState(raw []byte) error {
	if r.closed {
		return errors.New("recorder: closed")
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return errors.New("recorder: base state is not a JSON object")
	}
	if err := r.write(r.dir, "base_state.json", trimmed); err != nil {
		err = fmt.Errorf("recorder: %w", err)
		if r.failed == nil {
			r.failed = err // the events after it are not written either
		}
		return err
	}
	return nil
}

// Failure is the first write that failed (nil when every write so far
// succeeded) and how many events were not written because of it.
func (r *Recorder) Failure() (missed int, err error) { return r.missed, r.failed }

// Close makes the recording durable (it syncs the directories, so the
// renames survive a crash), releases the directory's lock and ends the
// recording; Record and WriteBaseState fail after Close.
func (r *Recorder) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	return errors.Join(syncDir(r.eventsDir), syncDir(r.dir), r.lock.release())
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
