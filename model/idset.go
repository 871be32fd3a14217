package model

import (
	"math/bits"
	"strings"

	"ohwatch/internal/jsonx"
)

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
// strings never share a key. Every appended event's id and parent id are
// packed: the digits are read eight at a time (hexWord), not one by one
// through a table, which was a fifth of the time of appending an event.
func packUUID(s string) (hi, lo uint64, ok bool) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return 0, 0, false
	}
	// The 32 digits without the dashes, as four words of eight.
	a, okA := hexWord(le64(s, 0))
	b, okB := hexWord(le32(s, 9) | le32(s, 14)<<32)
	c, okC := hexWord(le32(s, 19) | le32(s, 24)<<32)
	e, okE := hexWord(le64(s, 28))
	return a<<32 | b, c<<32 | e, okA && okB && okC && okE
}

// le64 is the eight bytes of s at i as a little-endian word (the
// compiler makes it one load).
func le64(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// le32 is the four bytes of s at i as a little-endian number.
func le32(s string, i int) uint64 {
	_ = s[i+3]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24
}

// hexWord reads eight lower-case hex digits, loaded little-endian (the
// first digit in the low byte), as the 32-bit number they spell; ok is
// false when any byte is not such a digit.
func hexWord(w uint64) (uint64, bool) {
	const high = jsonx.Ones * 0x80
	// For bytes under 0x80, adding 0x80-x sets a byte's high bit exactly
	// when it is at least x, with no carry into the next byte.
	atLeast := func(x uint64) uint64 { return (w + jsonx.Ones*(0x80-x)) & high }
	digit := atLeast('0') &^ atLeast('9'+1)
	letter := atLeast('a') &^ atLeast('f'+1)
	if w&high != 0 || digit|letter != high {
		return 0, false
	}
	// '0'-'9' are 0x30-0x39 and 'a'-'f' 0x61-0x66: the low nibble, plus 9
	// for a letter (bit 0x40).
	v := w&(jsonx.Ones*0x0f) + (w>>6)&jsonx.Ones*9
	// Pair the nibbles into bytes, the bytes into one word, and put the
	// first digit's byte on top.
	v = (v&0x000f000f000f000f)<<4 | (v>>8)&0x000f000f000f000f
	v = (v | v>>8) & 0x0000ffff0000ffff
	v = (v | v>>16) & 0xffffffff
	return uint64(bits.ReverseBytes32(uint32(v))), true
}

// uuidDigits are where the 32 hex digits of a canonical uuid are.
var uuidDigits = [32]uint8{
	0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17,
	19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,
}

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
