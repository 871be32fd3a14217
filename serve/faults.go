package serve

import (
	"math/rand/v2"
	"slices"
	"sync"
)

// faultState is the server's current Faults and the counters they consume:
// how many forced closes are left, the server-wide frame count for
// DropAtFrames and the seeded generator for DropChance.
type faultState struct {
	mu        sync.Mutex
	faults    Faults
	closeAuth int
	closeBusy int
	closeUnk  int
	closeRt   int
	frames    int
	rng       *rand.Rand
}

func newFaultState(f Faults) *faultState {
	s := &faultState{}
	s.set(f)
	return s
}

// set replaces the faults and restarts their counters.
func (s *faultState) set(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f.DropAtFrames = slices.Clone(f.DropAtFrames)
	s.faults = f
	s.closeAuth, s.closeBusy = f.CloseAuth, f.CloseBusy
	s.closeUnk, s.closeRt = f.CloseUnknown, f.CloseRuntime
	s.frames = 0
	s.rng = rand.New(rand.NewPCG(f.Seed, f.Seed^0x9e3779b97f4a7c15))
}

// get returns the current faults.
func (s *faultState) get() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.faults
	f.DropAtFrames = slices.Clone(f.DropAtFrames)
	return f
}

// silentAfter is Faults.SilentAfter, read on every emitted event.
func (s *faultState) silentAfter() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults.SilentAfter
}

// noTree is Faults.NoTree.
func (s *faultState) noTree() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults.NoTree
}

// forcedClose returns the close code a new socket must get from
// CloseAuth, CloseBusy, CloseUnknown or CloseRuntime (consuming one), or 0.
func (s *faultState) forcedClose() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closeAuth > 0:
		s.closeAuth--
		return closeAuthFailed
	case s.closeBusy > 0:
		s.closeBusy--
		return closeTryAgainLater
	case s.closeUnk > 0:
		s.closeUnk--
		return closePolicyViolation
	case s.closeRt > 0:
		s.closeRt--
		return closeInternalError
	}
	return 0
}

// dropAfter counts one frame sent by a socket that has now sent sent
// frames, and reports whether that socket must be dropped.
func (s *faultState) dropAfter(sent int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.frames++
	f := &s.faults
	if f.DropAfterFrames > 0 && sent >= f.DropAfterFrames {
		return true
	}
	if slices.Contains(f.DropAtFrames, s.frames) {
		return true
	}
	return f.DropChance > 0 && s.rng.Float64() < f.DropChance
}

// noInterrupt is Faults.NoInterrupt.
func (s *faultState) noInterrupt() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults.NoInterrupt
}
