//go:build unix

package files

import (
	"errors"
	"os"
	"syscall"
)

// lockDir opens (creating it) and locks the lock file at path with
// flock(2), without waiting: errLocked when another open file holds it.
// The kernel releases the lock when the process ends, however it ends, so
// a killed recorder never leaves a directory locked for ever.
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
