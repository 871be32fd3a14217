//go:build unix

package files

import (
	"errors"
	"os"
	"syscall"
)

// errLocked is lockDir's answer when another process holds the lock.
var errLocked = errors.New("locked")

// dirLock is a recording directory's lock file, held with flock(2): the
// kernel releases it when the process ends, however it ends, so a killed
// recorder never leaves a directory locked for ever.
type dirLock struct {
	f *os.File
}

// lockDir opens (creating it) and locks the lock file at path, without
// waiting: errLocked when another open file holds it.
func lockDir(path string) (*dirLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errLocked
		}
		return nil, err
	}
	return &dirLock{f: f}, nil
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
