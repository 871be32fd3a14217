package files

import (
	"io"
	"strings"

	"ohwatch/model"
)

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
	return model.NormalizeConversationID(model.SanitizeLine(strings.TrimSpace(id)))
}
