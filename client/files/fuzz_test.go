package files

import (
	"bytes"
	"testing"

	"ohwatch/internal/upstream"
)

// maxSeed bounds the size of a fuzz seed: the fuzzer slows to a crawl on
// inputs of hundreds of KB, and small real events cover every field.
const maxSeed = 8 << 10

// smallRealEvents returns the real events no larger than maxSeed, none
// on a bare clone (the target then runs on its own seeds).
func smallRealEvents(f *testing.F) [][]byte {
	var small [][]byte
	if !upstream.Present(f) {
		return nil
	}
	for _, dir := range upstream.Trajectories(f) {
		raws, _ := realEvents(f, dir)
		for _, raw := range raws {
			if len(raw) <= maxSeed {
				small = append(small, raw)
			}
		}
	}
	return small
}

// FuzzJSONL feeds arbitrary bytes to the JSONL line decoder, seeded with
// real events as JSONL, two lines at a time: it never panics, every line
// is either an event, a warning or blank, and every event's Raw is one
// whole line of the input.
func FuzzJSONL(f *testing.F) {
	small := smallRealEvents(f)
	for i := 0; i+1 < len(small); i += 2 {
		f.Add(bytes.Join(small[i:i+2], []byte{'\n'}))
	}
	f.Add([]byte("{}\n\n[1]\n{\"kind\":\r\n\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := decodeLines(t.Context(), data, "fuzz.jsonl", 1)
		lines := bytes.Count(data, []byte{'\n'}) + 1
		if len(p.Events)+len(p.Warnings) > 2*lines {
			t.Fatalf("%d events and %d warnings from %d lines", len(p.Events), len(p.Warnings), lines)
		}
		for _, ev := range p.Events {
			if bytes.IndexByte(ev.Raw, '\n') >= 0 || !bytes.Contains(data, ev.Raw) {
				t.Fatalf("Raw %q is not one line of the input", ev.Raw)
			}
		}
	})
}

// FuzzEventFile feeds arbitrary bytes to the event file decoder: it never
// panics, and a rejected file always has a warning naming it.
func FuzzEventFile(f *testing.F) {
	for _, raw := range smallRealEvents(f) {
		f.Add(raw)
	}
	f.Add([]byte{})
	f.Add([]byte("[[[[[[[[[[[["))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, warning, ok := decodeEvent(fileWhere("events/", "x.json"), data)
		if !ok && !bytes.HasPrefix([]byte(warning), []byte("events/x.json: ")) {
			t.Fatalf("rejected without a warning naming the file: %q", warning)
		}
	})
}
