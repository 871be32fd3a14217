//go:build !unix

package files

import "os"

// lockDir opens (creating it) the lock file at path. Without flock(2) it
// only names the conversation: two recorders of one directory are not
// kept apart on this platform.
func lockDir(path string) (*dirLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	return &dirLock{f: f}, nil
}
