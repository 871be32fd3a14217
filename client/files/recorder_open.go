package files

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"ohwatch/model"
)

// LockName is the file in a recording's directory that a recorder holds
// locked while it records, and that names the conversation recorded there.
// The SDK reads only base_state.json and events/, so it ignores it.
const LockName = ".ohwatch.lock"

// ErrOtherConversation is returned by OpenRecorder for a directory that
// already holds a different conversation.
var ErrOtherConversation = errors.New("holds a different conversation")

// ErrRecordingBusy is returned by OpenRecorder for a directory that another
// recorder holds.
var ErrRecordingBusy = errors.New("another ohwatch is recording into it")

// RecorderOptions configure OpenRecorder.
type RecorderOptions struct {
	// ConversationID is the conversation to be recorded ("" when unknown).
	// A directory that holds another one is refused.
	ConversationID string
	// WriteFile writes one file of the recording whole, atomically (nil:
	// the filesystem, through a temporary file and a rename). It is how
	// tests make the disk fill up.
	WriteFile func(dir, name string, data []byte) error
}

// NewRecorder opens dir for recording a conversation whose id is unknown
// (see OpenRecorder).
func NewRecorder(dir string) (*Recorder, error) {
	return OpenRecorder(context.Background(), dir, RecorderOptions{})
}

// OpenRecorder opens dir for recording, creating it and its events/
// directory when needed, and locks it for as long as the recorder is open.
// When dir already holds a recording of the same conversation the new
// events continue after its highest index, and the events it holds are not
// written again: their ids are read from the events themselves, since a
// file name holds a hash in place of an id that is not hex. A directory
// that holds another conversation (by its base_state.json or by the id a
// recorder left in the lock file) is refused with ErrOtherConversation;
// one that another recorder holds, with ErrRecordingBusy. Temporary files
// left by a recorder that was killed are removed. Reading a long
// recording's ids takes a moment: ctx ending stops it, with ctx's error.
func OpenRecorder(ctx context.Context, dir string, opts RecorderOptions) (*Recorder, error) {
	eventsDir := filepath.Join(dir, eventsDirName)
	if err := os.MkdirAll(eventsDir, 0o755); err != nil {
		return nil, fmt.Errorf("recorder: %w", err)
	}
	lock, err := lockDir(filepath.Join(dir, LockName))
	if err != nil {
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("recorder: %s: %w", dir, ErrRecordingBusy)
		}
		return nil, fmt.Errorf("recorder: %w", err)
	}
	r, err := openLocked(ctx, dir, eventsDir, lock, opts)
	if err != nil {
		lock.release()
		return nil, err
	}
	return r, nil
}

// openLocked is OpenRecorder once the directory is locked.
func openLocked(ctx context.Context, dir, eventsDir string, lock *dirLock, opts RecorderOptions) (*Recorder, error) {
	want := model.NormalizeConversationID(opts.ConversationID)
	if held := recordedConversation(dir, lock); want != "" && held != "" && held != want {
		return nil, fmt.Errorf("recorder: %s %w (%s, not %s): record into another directory", dir, ErrOtherConversation, held, want)
	}
	if want != "" {
		if err := lock.name(want); err != nil {
			return nil, fmt.Errorf("recorder: %w", err)
		}
	}
	removeTemporaries(dir)
	removeTemporaries(eventsDir)
	names, err := readNames(eventsDir)
	if err != nil {
		return nil, fmt.Errorf("recorder: %w", err)
	}
	r := &Recorder{dir: dir, eventsDir: eventsDir, ids: map[string]struct{}{}, lock: lock, write: opts.WriteFile}
	if r.write == nil {
		r.write = writeAtomic
	}
	files, seed := eventFiles(names)
	if seed {
		files = nil // the older seed layout: not the recorder's
	}
	for _, f := range files {
		r.next = max(r.next, f.Index+1)
	}
	if err := r.readIDs(ctx, files); err != nil {
		return nil, fmt.Errorf("recorder: %w", err)
	}
	r.resumed = len(files) > 0
	return r, nil
}

// readIDs fills the set of recorded ids from the events themselves (a
// file's name holds a hash in place of an id that is not hex), read by the
// loader's own pipeline and kept no longer than it takes to note their
// ids; every name counts too, so a file that cannot be read still does.
func (r *Recorder) readIDs(ctx context.Context, files []eventFile) error {
	for _, f := range files {
		r.ids[f.ID] = struct{}{}
	}
	if len(files) == 0 {
		return nil
	}
	rd, err := Open(r.dir)
	if err != nil {
		return err
	}
	defer rd.Close()
	_, err = rd.Stream(ctx, func(c Chunk) {
		for _, ev := range c.Events {
			r.ids[recordKey(ev)] = struct{}{}
		}
	})
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr // a partial set would write events twice
	}
	return err
}

// recordedConversation is the normalised id of the conversation a
// directory holds: base_state.json's, else the one a recorder left in the
// lock file; "" when neither says.
func recordedConversation(dir string, lock *dirLock) string {
	if raw, err := os.ReadFile(filepath.Join(dir, "base_state.json")); err == nil {
		if base, err := model.DecodeBaseState(raw); err == nil && base.ID != "" {
			return base.ID
		}
	}
	return lock.named()
}

// removeTemporaries removes the temporary files of writeAtomic that a
// killed recorder left behind: no reader matches them, and no other
// recorder can be writing them while the directory is locked.
func removeTemporaries(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		n := e.Name()
		if e.Type().IsRegular() && strings.HasPrefix(n, ".") && strings.HasSuffix(n, ".tmp") {
			os.Remove(filepath.Join(dir, n)) // best effort: a reader skips it anyway
		}
	}
}
