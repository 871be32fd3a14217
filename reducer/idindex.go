package reducer

import (
	"strings"

	"ohwatch/model"
)

// idIndex finds an event by its id. A map of a million id strings is tens
// of bytes per event and a million pointers for the collector; the ids of
// nearly every event are uuids, which the records hold packed, so the
// index is an open-addressing table of event positions (8 bytes a slot,
// at most 3/4 full) keyed by the records' uuids. Other ids (hand-made,
// "<id>-summary") go to a map of copies.
//
// Every appended event is looked up first (is it a duplicate?), and
// nearly always missed: a miss walks the probe sequence to an empty slot,
// and comparing ids there read a record per slot, a cache miss each in a
// table of megabytes. Each slot also holds the high half of its id's
// hash, so a probe reads a record only when that half matches.
//
// The table's size is any multiple of 64 slots, a hash's low half mapped
// onto it by multiplication: a log that knows how many events it will
// hold (a recording's event files) sizes it once, at 4/3 of them. Sized
// by doubling, a million events' table was 2M slots (16 MB) half full at
// the end of the load; sized once it is 1.33M (10.7 MB), and never copied.
type idIndex struct {
	slots  []idSlot
	used   int
	others map[string]int
}

// idSlot is an event's index + 1 in its low half (0: an empty slot) and
// the high half of its id's uuidHash in its high half.
type idSlot uint64

// newSlot is the slot of event j whose id hashes to h.
func newSlot(j int, h uint64) idSlot { return idSlot(h&^0xffffffff | uint64(uint32(j+1))) }

// event is the slot's event index; -1 for an empty slot.
func (v idSlot) event() int { return int(uint32(v)) - 1 }

// sameHash reports whether the slot's id may be the one hashing to h.
func (v idSlot) sameHash(h uint64) bool { return uint64(v)>>32 == h>>32 }

// uuidHash spreads a uuid over the table (uuid4s are random already;
// anything else still spreads).
func uuidHash(id [2]uint64) uint64 { return (id[0] ^ id[1]*0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9 }

// find returns the index of the event with this id.
func (x *idIndex) find(s *store, id string) (int, bool) {
	if id == "" {
		return 0, false
	}
	hi, lo, ok := model.PackUUID(id)
	if !ok {
		j, ok := x.others[id]
		return j, ok
	}
	if len(x.slots) == 0 {
		return 0, false
	}
	key := [2]uint64{hi, lo}
	hash := uuidHash(key)
	for h := x.home(hash); ; h = x.next(h) {
		v := x.slots[h]
		if v == 0 {
			return 0, false
		}
		if !v.sameHash(hash) {
			continue
		}
		if j := v.event(); s.recs[j/recChunk][j%recChunk].id == key {
			return j, true
		}
	}
}

// add files event j, whose record r is filled, under its id.
func (x *idIndex) add(s *store, j int, id string, r *record) {
	if id == "" {
		return
	}
	if r.flags&flagID == 0 {
		if x.others == nil {
			x.others = make(map[string]int)
		}
		x.others[strings.Clone(id)] = j
		return
	}
	if 4*(x.used+1) > 3*len(x.slots) {
		x.grow(s)
	}
	x.insert(r.id, j)
	x.used++
}

// home is the first slot of hash's probe sequence: its low half mapped
// onto the table (the high half is the slot's check, sameHash).
func (x *idIndex) home(hash uint64) uint64 {
	return uint64(uint32(hash)) * uint64(len(x.slots)) >> 32
}

// next is the slot after h, round the table.
func (x *idIndex) next(h uint64) uint64 {
	if h++; h == uint64(len(x.slots)) {
		return 0
	}
	return h
}

// insert puts event j in the first free slot of its probe sequence.
func (x *idIndex) insert(key [2]uint64, j int) {
	hash := uuidHash(key)
	h := x.home(hash)
	for x.slots[h] != 0 {
		h = x.next(h)
	}
	x.slots[h] = newSlot(j, hash)
}

// reserve sizes the empty table for n ids at most 3/4 full.
func (x *idIndex) reserve(n int) {
	if x.used == 0 && n > 0 {
		x.slots = make([]idSlot, slotsFor(n))
	}
}

// slotsFor is the size of a table for n ids: 4/3 n, in multiples of 64.
func slotsFor(n int) int { return (n*4/3 + 64) &^ 63 }

// grow doubles the table and files every event again.
func (x *idIndex) grow(s *store) {
	old := x.slots
	x.slots = make([]idSlot, max(64, 2*len(old)))
	for _, v := range old {
		if j := v.event(); j >= 0 {
			x.insert(s.recs[j/recChunk][j%recChunk].id, j)
		}
	}
}
