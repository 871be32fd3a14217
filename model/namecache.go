package model

import (
	"encoding/binary"
	"sync/atomic"

	"ohwatch/internal/arena"
)

// Every stats update names the same few usages and models again
// ("condenser", "litellm_proxy/anthropic/claude-sonnet-4-5-…"). Read as
// strings sharing the event's bytes, they made every stats body one to
// copy out before a log could keep it (Event.Detached); read through this
// cache they are the same few heap strings each time. The cache is a
// small direct-mapped table, lock-free for the loader's parallel
// decoders: a name that misses (or collides) is copied once more, so a
// hostile stream of distinct names costs what it did, never more memory.

// nameSlots is the size of the name cache, a power of two.
const nameSlots = 256

// maxCachedName is the longest name kept.
const maxCachedName = 96

var nameCache [nameSlots]atomic.Pointer[string]

// cachedName returns b as a string that does not share b's memory: the
// cached copy when there is one.
func cachedName(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > maxCachedName {
		return string(b)
	}
	slot := &nameCache[nameHash(b)&(nameSlots-1)]
	if p := slot.Load(); p != nil && *p == string(b) {
		return *p
	}
	s := string(b)
	slot.Store(&s)
	return s
}

// nameHash spreads names over the cache from their length and their
// first and last eight bytes: names that differ only in between share a
// slot, and take turns in it.
func nameHash(b []byte) uint64 {
	if len(b) < 8 {
		var w [8]byte
		copy(w[:], b)
		return (binary.LittleEndian.Uint64(w[:]) + uint64(len(b))) * 0x9e3779b97f4a7c15 >> 32
	}
	first := binary.LittleEndian.Uint64(b)
	last := binary.LittleEndian.Uint64(b[len(b)-8:])
	return (first ^ last*0xbf58476d1ce4e5b9 + uint64(len(b))) * 0x9e3779b97f4a7c15 >> 32
}

// name reads a short string field that repeats from event to event (a
// model or usage name) as a cached copy; see cachedName.
func (r *leanReader) name(v []byte, field string) string {
	if !r.isString(v, field) {
		return ""
	}
	return internName(v[1 : len(v)-1])
}

// internName is intern for a name that repeats from event to event: a
// name intern would hand back as body's own bytes comes from the cache.
func internName(body []byte) string {
	s := intern(body)
	if len(s) > 0 && arena.StringAddr(s) == arena.Addr(body) {
		return cachedName(body)
	}
	return s
}
