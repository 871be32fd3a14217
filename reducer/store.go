package reducer

import (
	"bytes"
	"time"

	"ohwatch/internal/arena"
	"ohwatch/model"
)

// A conversation of a million events is 1.4 GB of JSON. Kept as decoded
// events (a struct, its strings and its body per event) the log was 1.6x
// the JSON in live heap, a pointer graph every garbage collection walked,
// and the collector's headroom doubled it again in resident memory. The
// store keeps instead each event's raw bytes once, copied into large
// blocks (off the Go heap on unix once the log is big, see offheap_*.go),
// and one fixed-size record per event with no pointer in it; the decoded
// event is rebuilt from the raw bytes, by the decoder the sources use,
// when it is asked for. Events that decoding their raw bytes would not
// give back (built by hand, marked by the client that read them, or
// placeholders) are kept whole, as they came.

// record is what the store keeps of one event besides its raw bytes.
type record struct {
	block  uint32 // the raw bytes' block; for an event kept whole, its index in whole
	off    uint32 // the raw bytes' offset in their block
	n      uint32 // the raw bytes' length
	kind   int16  // position in model.Kinds
	source uint8  // position in the store's source names
	flags  uint8
	nanos  int64     // Time, as unix nanoseconds (flagTime)
	id     [2]uint64 // the id as a packed uuid (flagID)
	parent [2]uint64 // parent_id as a packed uuid (flagParent)
}

// record flags.
const (
	flagWhole      = 1 << iota // kept whole in store.whole
	flagArtifact               // never HEAD (isArtifact)
	flagTime                   // has a timestamp
	flagID                     // id is a uuid
	flagParent                 // parent_id is a uuid
	flagRootParent             // parent_id is RootParent
)

// recChunk is the number of records per chunk: chunks never move once
// made, so a reader may hold one while the log grows.
const recChunk = 1024

// Raw blocks: small ones on the heap while the log is small, then blocks
// of bigBlock bytes off the heap. An event larger than a block gets one of
// its own.
const (
	firstBlock = 64 << 10
	bigBlock   = 16 << 20
	// offHeapFrom is the stored raw size past which blocks come from
	// outside the Go heap: a log this big lives long.
	offHeapFrom = 4 << 20
)

// store is the events of a log. Every slice in it only grows by
// appending and no element written is ever changed, so a reader that
// copied the slice headers under the log's lock (a view) can read what
// they held after releasing it.
type store struct {
	recs   [][]record
	blocks [][]byte // full-length blocks
	// filling is 1 + the index of the block events are copied into, 0
	// before the first; fill is how much of it is used.
	filling int
	fill    int
	stored  int64 // raw bytes stored
	whole   []model.Event
	sources []string
	ids     idIndex
	arena   *arena.Arena
	// space is what readers read events into (Log.Space); adopted are
	// its blocks among blocks, by address, and lastAdopted is 1 + the
	// index of the one the last event was found in.
	space       *Space
	adopted     []spaceBlock
	lastAdopted int
}

// view is a reader's copy of a store's slice headers.
type view struct {
	recs    [][]record
	blocks  [][]byte
	whole   []model.Event
	sources []string
}

// view returns the reader's copy; call it with the log's lock held.
func (s *store) view() view {
	return view{recs: s.recs, blocks: s.blocks, whole: s.whole, sources: s.sources}
}

// rec returns the record of event i.
func (v *view) rec(i int) *record { return &v.recs[i/recChunk][i%recChunk] }

// raw returns the raw bytes of event i.
func (v *view) raw(r *record) []byte {
	if r.flags&flagWhole != 0 {
		return v.whole[r.block].Raw
	}
	b := v.blocks[r.block]
	return b[r.off : r.off+r.n : r.off+r.n]
}

// event rebuilds event i, to hand out: its Raw a heap copy of the bytes.
func (v *view) event(i int) model.Event {
	r := v.rec(i)
	if r.flags&flagWhole != 0 {
		return v.whole[r.block]
	}
	// Decode aliases the strings it reads into the bytes it is given: a
	// heap copy keeps every event handed out free of the blocks, which a
	// collected log's cleanup pools for the next log to reuse.
	return v.rebuild(r, bytes.Clone(v.raw(r)))
}

// folded rebuilds event i to fold it: decoded from the block in place,
// then only its strings copied (model.Event.Detached), so the State it
// goes into shares no memory with the block, and with no Raw, which no
// fold reads. A seek folds up to K of these: copying each event's bytes
// whole, as event does, was a sixth of a seek's time and most of its
// garbage.
func (v *view) folded(i int) model.Event {
	r := v.rec(i)
	if r.flags&flagWhole != 0 {
		return v.whole[r.block]
	}
	ev := v.rebuild(r, v.raw(r)).Detached()
	ev.Raw = nil
	return ev
}

// lent rebuilds event i for a walk: its strings copied out of the block
// (model.Event.Detached) and so its own, its Raw the stored bytes
// themselves, lent (see Log.Walk). An export or a `replay --json` reads
// every event once and keeps none of its bytes: copying them whole, as
// event does, was a fifth of walking a log.
func (v *view) lent(i int) model.Event {
	r := v.rec(i)
	if r.flags&flagWhole != 0 {
		return v.whole[r.block]
	}
	return v.rebuild(r, v.raw(r)).Detached()
}

// rebuild decodes raw, event r's bytes, and sets the header r keeps.
func (v *view) rebuild(r *record, raw []byte) model.Event {
	ev, err := model.Redecode(raw)
	if err != nil {
		// The bytes decoded once, when they came; they never change.
		panic("reducer: stored event no longer decodes: " + err.Error())
	}
	ev.Kind = model.Kinds()[r.kind].Name
	ev.Source = v.sources[r.source]
	ev.Time = r.time()
	if r.flags&flagID != 0 {
		if hi, lo, ok := model.PackUUID(ev.ID); !ok || hi != r.id[0] || lo != r.id[1] {
			ev.ID = model.FormatUUID(r.id[0], r.id[1])
		}
	} else {
		ev.ID = ""
	}
	switch {
	case r.flags&flagParent != 0:
		if hi, lo, ok := model.PackUUID(ev.ParentID); !ok || hi != r.parent[0] || lo != r.parent[1] {
			ev.ParentID = model.FormatUUID(r.parent[0], r.parent[1])
		}
	case r.flags&flagRootParent != 0:
		ev.ParentID = RootParent
	default:
		ev.ParentID = ""
	}
	return ev
}

// time is the record's timestamp.
func (r *record) time() time.Time {
	if r.flags&flagTime == 0 {
		return time.Time{}
	}
	return time.Unix(0, r.nanos).UTC()
}

// add stores ev as event j (= the number stored so far) and returns the
// event the log folds: ev, its Raw the stored bytes. Its strings still
// share the caller's buffers; the States keep copies of the few they keep
// (own.go), so they hold none of those buffers.
func (s *store) add(j int, ev model.Event) model.Event {
	if j%recChunk == 0 {
		s.recs = append(s.recs, s.newRecs())
	}
	r := &s.recs[j/recChunk][j%recChunk]
	if isArtifact(&ev) {
		r.flags |= flagArtifact
	}
	if hi, lo, ok := model.PackUUID(ev.ID); ok {
		r.id, r.flags = [2]uint64{hi, lo}, r.flags|flagID
	}
	s.ids.add(s, j, ev.ID, r)
	if !s.compact(r, &ev) {
		if s.space != nil {
			// A whole event is handed out as it is kept: nothing of it
			// may lie in the space, which goes with the log.
			ev = ev.Detached()
			ev.Raw = bytes.Clone(ev.Raw)
		}
		r.flags |= flagWhole
		r.block = uint32(len(s.whole))
		s.whole = append(s.whole, ev)
		return ev
	}
	r.block, r.off, r.n = s.put(ev.Raw)
	ev.Raw = s.blocks[r.block][r.off : r.off+r.n : r.off+r.n]
	return ev
}

// compact fills r's header from ev and reports whether decoding ev.Raw
// gives ev back: it came from model.Decode unchanged, and its header
// fits a record.
func (s *store) compact(r *record, ev *model.Event) bool {
	if len(ev.Raw) == 0 || len(ev.Raw) > 1<<31 {
		return false
	}
	switch b := ev.Body.(type) {
	case nil, *model.Unknown:
		return false
	case *model.StateUpdate:
		if b.Subscribe {
			return false
		}
	}
	k := model.KindIndex(ev.Kind)
	if k < 0 || ev.ID != "" && r.flags&flagID == 0 {
		return false
	}
	switch hi, lo, ok := model.PackUUID(ev.ParentID); {
	case ok:
		r.parent, r.flags = [2]uint64{hi, lo}, r.flags|flagParent
	case ev.ParentID == RootParent:
		r.flags |= flagRootParent
	case ev.ParentID != "":
		return false
	}
	if !ev.Time.IsZero() {
		r.nanos, r.flags = ev.Time.UnixNano(), r.flags|flagTime
		if r.time() != ev.Time {
			return false
		}
	}
	src, ok := s.source(ev.Source)
	if !ok {
		return false
	}
	r.kind, r.source = int16(k), src
	return true
}

// source returns the position of a source name, adding it when new.
func (s *store) source(name string) (uint8, bool) {
	for k, n := range s.sources {
		if n == name {
			return uint8(k), true
		}
	}
	if len(s.sources) == 255 {
		return 0, false
	}
	s.sources = append(s.sources, name)
	return uint8(len(s.sources) - 1), true
}

// put stores raw and returns where it is: where it was read, when that
// is the log's space, else copied into the blocks.
func (s *store) put(raw []byte) (block, off, n uint32) {
	if block, off, ok := s.adopt(raw); ok {
		s.stored += int64(len(raw))
		return block, off, uint32(len(raw))
	}
	if s.filling == 0 || s.fill+len(raw) > len(s.blocks[s.filling-1]) {
		size := firstBlock
		if s.filling > 0 {
			size = min(2*len(s.blocks[s.filling-1]), bigBlock)
		}
		size = max(size, len(raw))
		s.blocks = append(s.blocks, s.alloc(size))
		s.filling, s.fill = len(s.blocks), 0
	}
	block, off = uint32(s.filling-1), uint32(s.fill)
	copy(s.blocks[block][s.fill:], raw)
	s.fill += len(raw)
	s.stored += int64(len(raw))
	return block, off, uint32(len(raw))
}

// newRecs returns an empty chunk of records.
func (s *store) newRecs() []record {
	if s.stored < offHeapFrom {
		return make([]record, recChunk)
	}
	return arena.Make[record](s.mem(), recChunk)
}

// alloc returns a zeroed block of n bytes.
func (s *store) alloc(n int) []byte {
	if s.stored < offHeapFrom {
		return make([]byte, n)
	}
	return s.mem().Bytes(n)
}

// mem returns the store's off-heap memory, made on first use.
func (s *store) mem() *arena.Arena {
	if s.arena == nil {
		// s lies inside its Log: the pages go when the Log does.
		s.arena = arena.New(s)
	}
	return s.arena
}
