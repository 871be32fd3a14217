package files

import (
	"fmt"
	"io"
	"io/fs"
	"os"

	"ohwatch/internal/arena"
	"ohwatch/model"
)

// slabBlock is the size of the blocks a slab carves event buffers from;
// blocks from a reader's space (Reader.ReadInto) grow from it to
// spaceBlock.
const (
	slabBlock  = 64 << 10
	spaceBlock = 1 << 20
)

// slab hands out byte buffers of exactly the size asked, carved from
// shared 64 KiB blocks. An event's bytes stay resident for as long as the
// log lives; allocated one by one, each buffer would be rounded up to the
// allocator's next size class, which costs about 15% of the JSON's size
// over a whole conversation. Carved from blocks, the waste is the tail of
// each block. Buffers larger than a quarter block get their own
// allocation. A slab is for one goroutine.
//
// A slab given a space (from) takes its blocks there instead, the memory
// the events will be kept in, so that they need no copy.
type slab struct {
	block []byte
	from  func(n int) []byte
	// next is the size of the next block taken from the space.
	next int
}

// alloc returns a buffer of length and capacity n. A nil slab allocates
// each buffer on its own, for one-off reads.
func (s *slab) alloc(n int) []byte {
	if s == nil {
		return make([]byte, n)
	}
	if s.from != nil {
		return s.fromSpace(n)
	}
	if n > slabBlock/4 {
		return make([]byte, n)
	}
	if cap(s.block)-len(s.block) < n {
		s.block = make([]byte, 0, slabBlock)
	}
	start := len(s.block)
	s.block = s.block[:start+n]
	return s.block[start : start+n : start+n]
}

// fromSpace is alloc from the space: blocks double from slabBlock to
// spaceBlock, so a short conversation takes little. A buffer larger than
// a quarter of the next block comes from the heap, and its event is
// copied into the log: a block of the space for each would be memory the
// log keeps for good, for a size a zip entry may only claim.
func (s *slab) fromSpace(n int) []byte {
	s.next = max(s.next, slabBlock)
	if n > s.next/4 {
		return make([]byte, n)
	}
	if cap(s.block)-len(s.block) < n {
		s.block = s.from(s.next)[:0]
		s.next = min(2*s.next, spaceBlock)
	}
	start := len(s.block)
	s.block = s.block[:start+n]
	return s.block[start : start+n : start+n]
}

// readFile reads a whole file into a buffer of exactly its size, carved
// from s (nil for a one-off read). A file that grows while it is read is
// still read to its end. Anything but a regular file is refused before it
// is opened: opening a FIFO would block until a writer appeared, and a
// device may never end. A file over MaxEventBytes is not read
// (an *oversizeError with its head).
func readFile(path string, s *slab) ([]byte, error) {
	return readFileUpTo(path, s, MaxEventBytes)
}

// readFileUpTo is readFile with a limit of its own.
func readFileUpTo(path string, s *slab, limit int64) ([]byte, error) {
	f, info, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := info.Size()
	if size > limit {
		return nil, readHead(f, size, limit)
	}
	if size < 0 {
		size = 0
	}
	return s.readUpTo(f, int(size), limit)
}

// OpenRegular opens path for reading only if it is a regular file, never
// blocking: a FIFO, a device (/dev/tty), a socket or a directory is
// refused with an error naming it. The TUI's editor key checks a path from
// an event with it before handing it to an editor, which would block on a
// FIFO for ever or fight the TUI for a terminal's keys.
func OpenRegular(path string) (*os.File, error) {
	f, _, err := openRegular(path)
	return f, err
}

// openRegular is OpenRegular with the file's information.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, nil, notRegular(info.Mode())
	}
	// Opened without blocking and checked again: the name may have been
	// swapped for a FIFO since the stat.
	f, err := openNoBlock(path)
	if err != nil {
		return nil, nil, err
	}
	if info, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular(info.Mode())
	}
	return f, info, nil
}

// notRegular is the error for a path that is not a regular file, naming
// what it is instead.
func notRegular(mode fs.FileMode) error {
	what := "special file"
	switch {
	case mode.IsDir():
		what = "directory"
	case mode&fs.ModeNamedPipe != 0:
		what = "named pipe"
	case mode&fs.ModeSocket != 0:
		what = "socket"
	case mode&fs.ModeDevice != 0:
		what = "device"
	}
	return fmt.Errorf("not a regular file (%s)", what)
}

// read reads r to its end into a buffer of size bytes carved from s (see
// readAllSized), and gives back to s what the read did not fill: a file
// that shrank or failed, a zip entry that claimed more than it held. What
// a slab from a space hands out stays with the log for good.
func (s *slab) read(r io.Reader, size int) ([]byte, error) {
	return s.readUpTo(r, size, MaxEventBytes)
}

// readUpTo is read with a limit of its own to what r may grow to.
func (s *slab) readUpTo(r io.Reader, size int, limit int64) ([]byte, error) {
	buf := s.alloc(size)
	got, err := readAllSized(r, buf, limit)
	used := len(got)
	if err != nil || len(got) > 0 && arena.Addr(got) != arena.Addr(buf) {
		used = 0 // read into a buffer of its own, or not at all
	}
	if s != nil && len(buf) > used && len(s.block) >= len(buf) && len(buf) > 0 &&
		arena.Addr(buf) == arena.Addr(s.block[len(s.block)-len(buf):]) {
		s.block = s.block[:len(s.block)-len(buf)+used]
	}
	return got, err
}

// readAllSized reads r to its end into buf, sized for the expected length,
// growing it only when r turns out to be longer, to at most limit bytes.
func readAllSized(r io.Reader, buf []byte, limit int64) ([]byte, error) {
	n, err := io.ReadFull(r, buf)
	switch err {
	case nil:
	case io.EOF, io.ErrUnexpectedEOF:
		return buf[:n:n], nil
	default:
		return nil, err
	}
	// The file may have grown since it was measured: read the rest.
	var probe [1]byte
	m, err := r.Read(probe[:])
	if m == 0 && (err == io.EOF || err == nil) {
		return buf, nil
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	// Growing while read: at most to the limit.
	rest, err := io.ReadAll(io.LimitReader(r, max(limit-int64(len(buf)), 0)))
	if err != nil {
		return nil, err
	}
	if int64(len(buf)+m+len(rest)) >= limit {
		head := append(append(buf[:min(len(buf), model.HeadScan):min(len(buf), model.HeadScan)], probe[:m]...), rest...)
		return nil, &oversizeError{head: head[:min(len(head), model.HeadScan)], size: int64(len(buf) + m + len(rest)), limit: limit}
	}
	out := make([]byte, 0, len(buf)+m+len(rest))
	out = append(append(append(out, buf...), probe[:m]...), rest...)
	return out, nil
}
