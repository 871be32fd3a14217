package reducer

import (
	"strings"

	"ohwatch/model"
)

// idIndex finds an event by its id. A map of a million id strings is tens
// of bytes per event and a million pointers for the collector; the ids of
// nearly every event are uuids, which the records hold packed, so the
// index is an open-addressing table of event positions (4 bytes a slot,
// at most 3/4 full) keyed by the records' uuids. Other ids (hand-made,
// "<id>-summary") go to a map of copies.
type idIndex struct {
	slots  []int32 // event index + 1; 0 is an empty slot
	used   int
	others map[string]int
}

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
	mask := uint64(len(x.slots) - 1)
	for h := uuidHash(key) & mask; ; h = (h + 1) & mask {
		v := x.slots[h]
		if v == 0 {
			return 0, false
		}
		if r := &s.recs[(v-1)/recChunk][(v-1)%recChunk]; r.id == key {
			return int(v - 1), true
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

// insert puts event j in the first free slot of its probe sequence.
func (x *idIndex) insert(key [2]uint64, j int) {
	mask := uint64(len(x.slots) - 1)
	h := uuidHash(key) & mask
	for x.slots[h] != 0 {
		h = (h + 1) & mask
	}
	x.slots[h] = int32(j + 1)
}

// grow doubles the table and files every event again.
func (x *idIndex) grow(s *store) {
	old := x.slots
	x.slots = make([]int32, max(64, 2*len(old)))
	for _, v := range old {
		if v != 0 {
			x.insert(s.recs[(v-1)/recChunk][(v-1)%recChunk].id, int(v-1))
		}
	}
}
