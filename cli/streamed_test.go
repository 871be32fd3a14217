package cli

import (
	"bytes"
	"fmt"
	"sync"
	"time"
)

// streamed is an output a running command writes to while the test
// waits for what it writes. A wait wakes on each write, never on a
// clock: the bound only says when waiting has failed.
type streamed struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	wrote chan struct{} // closed and replaced on every write
}

func newStreamed() *streamed { return &streamed{wrote: make(chan struct{})} }

func (s *streamed) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := s.buf.Write(p)
	close(s.wrote)
	s.wrote = make(chan struct{})
	return n, err
}

func (s *streamed) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor returns once cond holds for everything written so far, or an
// error naming what after bound.
func (s *streamed) waitFor(what string, bound time.Duration, cond func(string) bool) error {
	timeout := time.NewTimer(bound)
	defer timeout.Stop()
	for {
		s.mu.Lock()
		out, wrote := s.buf.String(), s.wrote
		s.mu.Unlock()
		if cond(out) {
			return nil
		}
		select {
		case <-wrote:
		case <-timeout.C:
			return fmt.Errorf("no %s in %v; the output so far:\n%s", what, bound, out)
		}
	}
}
