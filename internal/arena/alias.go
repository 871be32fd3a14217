package arena

import "unsafe"

// String is b viewed as a string, without copying: the caller must not
// change b while the string is in use, nor keep the string past b's
// memory (an arena's block outlives neither its owner). An empty b gives
// "", which points nowhere: an empty view still pointing into b would keep
// all of b's block alive, and nothing that copies strings out (a
// detacher) copies an empty one.
func String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Bytes is s viewed as bytes, without copying, to read only.
func Bytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// Addr is where b's bytes start.
func Addr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// StringAddr is where s's bytes start.
func StringAddr(s string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(s))) }

// SameString reports whether a and b start at the same bytes (so a string
// handed back unchanged, or a shared one, need not be compared).
func SameString(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

// Within reports whether inner lies wholly inside outer, and at which
// offset.
func Within(outer, inner []byte) (uint32, bool) {
	base, p := Addr(outer), Addr(inner)
	if p < base || p+uintptr(len(inner)) > base+uintptr(len(outer)) {
		return 0, false
	}
	return uint32(p - base), true
}
