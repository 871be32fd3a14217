package otel

import "hash/maphash"

// idSet is the set of event ids a Live has taken, so that a reconnect's
// replay adds nothing. It is keyed by a hash of each id rather than by the
// id: growing a map of strings hashes every stored id again, reading bytes
// scattered over the heap, which cost more than the rest of the check.
// It stays exact: the id is kept beside its hash and compared, and ids
// whose hashes collide (vanishingly rare) go to a map of their own.
type idSet struct {
	seed   maphash.Seed
	byHash map[uint64]string
	clash  map[string]struct{}
}

func newIDSet() idSet {
	return idSet{seed: maphash.MakeSeed(), byHash: make(map[uint64]string)}
}

// add adds id and reports whether it was new.
func (s *idSet) add(id string) bool {
	h := maphash.String(s.seed, id)
	old, ok := s.byHash[h]
	if !ok {
		s.byHash[h] = id
		return true
	}
	if old == id {
		return false
	}
	if _, dup := s.clash[id]; dup {
		return false
	}
	if s.clash == nil {
		s.clash = make(map[string]struct{})
	}
	s.clash[id] = struct{}{}
	return true
}
