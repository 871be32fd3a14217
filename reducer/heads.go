package reducer

import (
	"iter"
	"runtime"
	"time"

	"ohwatch/model"
)

// Head is what the log keeps of an event besides its body, read without
// decoding it: the same id, kind, source and time as the event the log
// rebuilds (Log.Event), and its stored bytes.
type Head struct {
	ID, Kind, Source string
	Time             time.Time
	Raw              []byte // lent, as Walk lends an event's Raw
}

// Heads yields the heads of path p's events, as Raws yields their bytes:
// a reader that took only their bodies' few facts as they were appended
// (the headless lines of a million events) keeps no id, kind, source or
// time of its own; the records hold them already.
func (l *Log) Heads(p Path) iter.Seq2[int, Head] {
	return func(yield func(int, Head) bool) {
		defer runtime.KeepAlive(l)
		l.mu.RLock()
		v, n := l.st.view(), l.n
		l.mu.RUnlock()
		for i := range p.indices(n) {
			if !yield(i, v.head(v.rec(i))) {
				return
			}
		}
	}
}

// head is record r's event's head.
func (v *view) head(r *record) Head {
	if r.flags&flagWhole != 0 {
		ev := &v.whole[r.block]
		return Head{ID: ev.ID, Kind: ev.Kind, Source: ev.Source, Time: ev.Time, Raw: ev.Raw}
	}
	h := Head{Kind: model.Kinds()[r.kind].Name, Source: v.sources[r.source], Time: r.time(), Raw: v.raw(r)}
	if r.flags&flagID != 0 {
		h.ID = model.FormatUUID(r.id[0], r.id[1])
	}
	return h
}
