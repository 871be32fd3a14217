package model

import "strings"

// IDSet is a set of event ids, kept compact and cheap to grow: a canonical
// uuid (36 characters with dashes, as the SDK writes event ids) is held as
// its 16 bytes, any other id as a copy of the string. The uuids are keyed
// by their first eight bytes, holding the other eight: a map of integers
// hashes in a few instructions, never reads the ids' bytes again when it
// grows (a map of strings does) and holds no pointer for the collector to
// follow. Two uuids sharing their first half (vanishingly rare, unless a
// server means it) go to a map of their own, so the set stays exact. The
// copy of other ids matters: a decoded event's id shares the memory of its
// raw JSON, and keeping that id would keep the whole event alive. The zero
// IDSet is empty and ready.
type IDSet struct {
	uuids  map[uint64]uint64
	clash  map[[2]uint64]struct{}
	others map[string]struct{}
}

// Add records id and reports whether it was new. The empty id is never a
// duplicate (an event without one cannot be told apart from another).
func (s *IDSet) Add(id string) bool {
	if id == "" {
		return true
	}
	if hi, lo, ok := packUUID(id); ok {
		if s.uuids == nil {
			s.uuids = make(map[uint64]uint64)
		}
		old, taken := s.uuids[hi]
		if !taken {
			s.uuids[hi] = lo
			return true
		}
		if old == lo {
			return false
		}
		k := [2]uint64{hi, lo}
		if _, dup := s.clash[k]; dup {
			return false
		}
		if s.clash == nil {
			s.clash = make(map[[2]uint64]struct{})
		}
		s.clash[k] = struct{}{}
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

// Len is the number of ids held.
func (s *IDSet) Len() int { return len(s.uuids) + len(s.clash) + len(s.others) }

// packUUID reads a lower-case canonical uuid (8-4-4-4-12 hex digits) as
// its two halves. Only that one spelling is packed, so two different
// strings never share a key.
func packUUID(s string) (hi, lo uint64, ok bool) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return 0, 0, false
	}
	var bad byte
	for _, p := range uuidDigits[:16] {
		d := hexValue[s[p]]
		bad |= d
		hi = hi<<4 | uint64(d&0xf)
	}
	for _, p := range uuidDigits[16:] {
		d := hexValue[s[p]]
		bad |= d
		lo = lo<<4 | uint64(d&0xf)
	}
	return hi, lo, bad&0xf0 == 0
}

// uuidDigits are where the 32 hex digits of a canonical uuid are.
var uuidDigits = [32]uint8{
	0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17,
	19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,
}

// hexValue maps a lower-case hex digit to its value, anything else to 0xff.
var hexValue = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = byte(c - '0')
	}
	for c := 'a'; c <= 'f'; c++ {
		t[c] = byte(c-'a') + 10
	}
	return t
}()

// PackUUID reads a lower-case canonical uuid as its two halves; ok is
// false for any other string.
func PackUUID(s string) (hi, lo uint64, ok bool) { return packUUID(s) }

// FormatUUID is the canonical spelling of the uuid PackUUID read.
func FormatUUID(hi, lo uint64) string {
	const digits = "0123456789abcdef"
	b := []byte("00000000-0000-0000-0000-000000000000")
	for k := 15; k >= 0; k-- {
		b[uuidDigits[k]] = digits[hi&0xf]
		hi >>= 4
	}
	for k := 15; k >= 0; k-- {
		b[uuidDigits[16+k]] = digits[lo&0xf]
		lo >>= 4
	}
	return string(b)
}
