//go:build !unix

package files

import (
	"errors"
	"os"
)

// errLocked is lockDir's answer when another process holds the lock.
var errLocked = errors.New("locked")

// dirLock is a recording directory's lock file. Without flock(2) it only
// names the conversation: two recorders of one directory are not kept
// apart on this platform.
type dirLock struct {
	f *os.File
}

// lockDir opens (creating it) the lock file at path.
func lockDir(path string) (*dirLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	return &dirLock{f: f}, nil
}

// release closes the lock file. Safe on a nil lock.
func (l *dirLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
