package headless

import (
	"encoding/binary"
	"io"
	"os"
)

// spill keeps the full chunks of a recording's line facts and text in a
// temporary file while the recording is read, and reads them back, in
// order, as the lines are printed. They are written once and read once,
// front to back; held in memory they were 58 MB at a million events (the
// summaries and the little of each body a line shows), the part of the
// heap at the peak of a `replay --headless` that no other command has.
// What fails to be written stays in memory, so a spill that cannot be
// made (no writable temporary directory, a full disk) costs memory only.
type spill struct {
	f    *os.File
	name string // removed at close when it could not be at once
	off  int64
	err  error // the first failure: nothing more is spilled
}

// spillFrom is how many chunks of facts and of text a recording keeps in
// memory before it spills: one of up to 16,384 events (factChunk) and a
// MiB of summaries (textChunk) makes no file.
const spillFrom = 1

// put writes b at the end of the file and returns where it is; ok is
// false when it could not be written (then b is to stay in memory).
func (s *spill) put(b []byte) (at int64, ok bool) {
	if s.err != nil {
		return 0, false
	}
	if s.f == nil {
		f, err := os.CreateTemp("", "ohwatch-lines-*")
		if err != nil {
			s.err = err
			return 0, false
		}
		s.f = f
		// Unlinked at once where the system allows it: the file goes with
		// the process, whatever ends it.
		if os.Remove(f.Name()) != nil {
			s.name = f.Name()
		}
	}
	if _, err := s.f.Write(b); err != nil {
		// Written up to where it failed: that part is never read.
		s.err = err
		return 0, false
	}
	at = s.off
	s.off += int64(len(b))
	return at, true
}

// get reads n bytes from at into a new buffer, which callers may alias:
// it is never written again.
func (s *spill) get(at int64, n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := s.f.ReadAt(b, at); err != nil && err != io.EOF {
		return nil, err
	}
	return b, nil
}

// close removes the file.
func (s *spill) close() {
	if s.f == nil {
		return
	}
	s.f.Close()
	if s.name != "" {
		os.Remove(s.name)
	}
	s.f, s.err = nil, os.ErrClosed
}

// factSize is a lineFact's size in the file.
const factSize = 14

// putFacts writes a full chunk of facts.
func (s *spill) putFacts(fs []lineFact) (int64, bool) {
	b := make([]byte, 0, len(fs)*factSize)
	for _, f := range fs {
		b = binary.LittleEndian.AppendUint32(b, f.summary.off)
		b = binary.LittleEndian.AppendUint32(b, f.summary.n)
		b = binary.LittleEndian.AppendUint16(b, f.risk)
		b = binary.LittleEndian.AppendUint16(b, f.status)
		b = append(b, f.body, boolByte(f.fullState))
	}
	return s.put(b)
}

// getFacts reads back n facts written at at.
func (s *spill) getFacts(at int64, n int) ([]lineFact, error) {
	b, err := s.get(at, n*factSize)
	if err != nil {
		return nil, err
	}
	fs := make([]lineFact, n)
	for k := range fs {
		e := b[k*factSize:]
		fs[k] = lineFact{
			summary: span{off: binary.LittleEndian.Uint32(e), n: binary.LittleEndian.Uint32(e[4:])},
			risk:    binary.LittleEndian.Uint16(e[8:]), status: binary.LittleEndian.Uint16(e[10:]),
			body: e[12], fullState: e[13] != 0,
		}
	}
	return fs, nil
}

// boolByte is b as a byte.
func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
