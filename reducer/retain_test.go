package reducer

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/arena"
	"ohwatch/internal/fixtures"
	"ohwatch/internal/upstream"
	"ohwatch/model"
)

// TestStatesKeepNothingOfTheCallersBuffers: a reader hands the log events
// decoded from its own buffers (a loader's 64 KiB segments), and the log
// keeps nothing of them but the events it keeps whole: no State (the
// newest, a checkpoint, one At returns), no event of its cache of the
// newest, nothing else of the log points into them. Otherwise a
// State kept for good, a checkpoint every 32 events, would keep a segment
// of the reader's alive, and a loaded conversation would hold its JSON
// twice.
func TestStatesKeepNothingOfTheCallersBuffers(t *testing.T) {
	t.Parallel()
	corpora := map[string][][]byte{}
	for _, name := range []string{fixtures.SDK, fixtures.CLI, fixtures.Situations, fixtures.Unknown, fixtures.Branches} {
		corpora[name] = eventFilesOf(t, fixtures.Path(t, name))
	}
	for raw := range gen.Events(gen.Options{Events: 3000, Seed: 9, Branches: 3}) {
		corpora["generated"] = append(corpora["generated"], raw)
	}
	if upstream.Present(t) {
		for _, tr := range upstream.Trajectories(t) {
			corpora[filepath.Base(tr)] = upstream.EventFiles(t, tr)
		}
	}
	for name, raws := range corpora {
		t.Run(name, func(t *testing.T) {
			// Every event decoded from one buffer of the test's, as a
			// loader decodes a span of files from one segment.
			var size int
			for _, raw := range raws {
				size += len(raw)
			}
			buf := make([]byte, 0, size)
			evs := make([]model.Event, 0, len(raws))
			for _, raw := range raws {
				at := len(buf)
				buf = append(buf, raw...)
				ev, err := model.Decode(buf[at:len(buf):len(buf)])
				if err != nil {
					continue
				}
				evs = append(evs, ev)
			}
			lo := arena.Addr(buf)
			hi := lo + uintptr(cap(buf))
			log := NewLog(nil, 0)
			for k := 0; k < len(evs); k += 64 {
				log.Append(evs[k:min(k+64, len(evs))]...)
			}
			check := func(what string, v reflect.Value) {
				walkMemory(v, what, map[uintptr]bool{}, func(path string, a uintptr) {
					if a >= lo && a < hi {
						t.Fatalf("%s points into the caller's buffer (offset %d: %.80q)", path, a-lo, buf[a-lo:])
					}
				})
			}
			l := reflect.ValueOf(log).Elem()
			for k := range l.NumField() {
				switch f := l.Type().Field(k); f.Name {
				case "st":
					// The events as stored (those kept whole keep their
					// bytes by design: rare kinds, hand-made events).
				case "cache":
					for _, c := range log.cache {
						v := log.st.view()
						if c.i1 > 0 && v.rec(c.i1-1).flags&flagWhole == 0 {
							check("Log.cache[]", reflect.ValueOf(c.ev))
						}
					}
				default:
					check("Log."+f.Name, l.Field(k))
				}
			}
			for i := 0; i < log.Len(); i += 7 {
				check("At", reflect.ValueOf(log.At(i)))
			}
			// The buffer must outlive the checks: freed, its memory could
			// hold a copy the log made, which would then look like it.
			runtime.KeepAlive(buf)
		})
	}
}

// eventFilesOf reads the event files of a conversation directory in
// index order.
func eventFilesOf(t *testing.T, dir string) [][]byte {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "events", "event-*.json"))
	var raws [][]byte
	for _, n := range names {
		raw, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, raw)
	}
	if len(raws) == 0 {
		t.Fatalf("no events in %s", dir)
	}
	return raws
}
