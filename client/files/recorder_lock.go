package files

import (
	"errors"
	"io"
	"os"
	"strings"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// errLocked is lockDir's answer when another process holds the lock.
var errLocked = errors.New("locked")

// dirLock is a recording directory's lock file (LockName), held locked
// while a recorder is open (lockDir, per platform).
type dirLock struct {
	f *os.File
}

// release unlocks and closes the lock file; the file stays, naming the
// conversation. Safe on a nil lock.
func (l *dirLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the last descriptor releases the flock
	l.f = nil
	return err
}

// lockPrefix starts the one line of a lock file that names the
// conversation recorded in its directory.
const lockPrefix = "conversation "

// name writes the conversation id into the lock file, replacing what it
// held, and flushes it to disk, so the directory stays claimed by this
// conversation after the recorder is gone.
func (l *dirLock) name(id string) error {
	if err := l.f.Truncate(0); err != nil {
		return err
	}
	if _, err := l.f.WriteAt([]byte(lockPrefix+id+"\n"), 0); err != nil {
		return err
	}
	return l.f.Sync()
}

// named is the conversation id the lock file holds, "" when none.
func (l *dirLock) named() string {
	buf := make([]byte, 256)
	n, err := l.f.ReadAt(buf, 0)
	if err != nil && err != io.EOF {
		return ""
	}
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	id, ok := strings.CutPrefix(line, lockPrefix)
	if !ok {
		return ""
	}
	return model.NormalizeConversationID(sanitize.Line(strings.TrimSpace(id)))
}
