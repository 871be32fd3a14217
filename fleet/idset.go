package fleet

import "strings"

// idSet is the set of event ids a conversation has seen, kept compact: a
// canonical uuid (36 characters with dashes, as the SDK writes event ids)
// is held as its 16 bytes, any other id as a copy of the string. The copy
// matters: a decoded event's id shares the memory of its raw JSON, and
// keeping that id would keep the whole event alive.
type idSet struct {
	uuids  map[[16]byte]struct{}
	others map[string]struct{}
}

// add records id and reports whether it was new. The empty id is never a
// duplicate (an event without one cannot be told apart from another).
func (s *idSet) add(id string) bool {
	if id == "" {
		return true
	}
	if k, ok := packUUID(id); ok {
		if s.uuids == nil {
			s.uuids = make(map[[16]byte]struct{})
		}
		if _, dup := s.uuids[k]; dup {
			return false
		}
		s.uuids[k] = struct{}{}
		return true
	}
	if s.others == nil {
		s.others = make(map[string]struct{})
	}
	if _, dup := s.others[id]; dup {
		return false
	}
	s.others[strings.Clone(id)] = struct{}{}
	return true
}

// len is the number of ids held.
func (s *idSet) len() int { return len(s.uuids) + len(s.others) }

// packUUID reads a lower-case canonical uuid (8-4-4-4-12 hex digits). Only
// that one spelling is packed, so two different strings never share a key.
func packUUID(s string) (k [16]byte, ok bool) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return k, false
	}
	j := 0
	for i := 0; i < 36; {
		if s[i] == '-' {
			i++
			continue
		}
		hi, ok1 := lowerHex(s[i])
		lo, ok2 := lowerHex(s[i+1])
		if !ok1 || !ok2 {
			return k, false
		}
		k[j] = hi<<4 | lo
		j++
		i += 2
	}
	return k, true
}

func lowerHex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}
