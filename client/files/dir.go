package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// eventsDirName is the SDK's name for the directory of event files.
const eventsDirName = "events"

// locate resolves a directory given on the command line to the
// conversation directory and its events/ directory: PATH may be either.
func locate(path string) (convDir, eventsDir string) {
	if filepath.Base(filepath.Clean(path)) == eventsDirName && !isDir(filepath.Join(path, eventsDirName)) {
		return filepath.Dir(filepath.Clean(path)), path
	}
	return path, filepath.Join(path, eventsDirName)
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// readNames lists a directory's entry names, unsorted: the cheapest
// listing there is (no stat per entry), which matters at 100k files.
// A name that is not a directory is refused without being opened (a FIFO
// named events/ would block the open).
func readNames(dir string) ([]string, error) {
	f, err := openNoBlock(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil {
		return nil, err
	} else if !info.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: syscall.ENOTDIR}
	}
	return f.Readdirnames(-1)
}

// openDir opens an SDK or seed-layout conversation directory.
func openDir(path string) (*Reader, error) {
	convDir, eventsDir := locate(path)
	r := &Reader{readWhole: func(name string) ([]byte, error) {
		return readFileUpTo(filepath.Join(convDir, name), nil, maxZipEntry)
	}}
	// The base state can be megabytes of metrics: decode it while the
	// events directory is listed, both being on the way to the first
	// screen.
	var found bool
	headerDone := make(chan struct{})
	go func() {
		defer close(headerDone)
		r.header, found = readHeader(path, filepath.Base(filepath.Clean(convDir)), func(name string) ([]byte, error) {
			return readHeaderFile(convDir, name)
		}, func(name string) (io.ReadCloser, error) { return openHeaderFile(convDir, name) })
	}()
	names, err := readNames(eventsDir)
	files, seed := eventFiles(names)
	<-headerDone
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist) && found:
		r.header.Warnings = append(r.header.Warnings, "events/: missing: the conversation has no events")
	case errors.Is(err, fs.ErrNotExist):
		if n := countConversations(path); n > 0 {
			return nil, fmt.Errorf("%s: not a conversation directory but a root of %d conversations: choose one of its directories", path, n)
		}
		return nil, fmt.Errorf("%s: not a conversation directory (no base_state.json and no events/)", path)
	default:
		return nil, fmt.Errorf("read events: %w", err)
	}
	if !seed {
		r.header.Warnings = append(r.header.Warnings, sanitizeAll(indexWarnings("events/", files))...)
	}
	read := func(string, *slab) ([]byte, error) { return nil, fs.ErrNotExist }
	if len(files) > 0 {
		d, err := openDirFiles(eventsDir)
		if err != nil {
			return nil, fmt.Errorf("read events: %w", err)
		}
		read, r.close = d.read, d.Close
	}
	if r.header.Title == "" {
		r.header.Title = probeTitle(files, func(name string) ([]byte, error) { return read(name, nil) })
	}
	r.total, r.files = int64(len(files)), len(files)
	chunks := chunkFiles(files)
	r.jobs = func(ctx context.Context) <-chan job { return fileJobs(ctx, chunks, "events/", read) }
	return r, nil
}

// fileJobs cuts ordered event files into jobs for runOrdered. The first
// runs are short so the first screen shows within milliseconds; later ones
// grow so that a 100k-file directory is handed out in tens of batches, not
// thousands.
func fileJobs(ctx context.Context, chunks [][]eventFile, prefix string, read func(name string, s *slab) ([]byte, error)) <-chan job {
	jobs := make(chan job)
	go func() {
		defer close(jobs)
		size := 32
		for seq, k, lo := 0, 0, 0; k < len(chunks); seq++ {
			chunk := chunks[k]
			hi := min(lo+size, len(chunk))
			span := chunk[lo:hi]
			j := job{seq: seq, units: int64(len(span)), run: func(ctx context.Context, s *slab) part { return readSpan(ctx, span, prefix, read, s) }}
			select {
			case <-ctx.Done():
				return
			case jobs <- j:
			}
			lo = hi
			if lo == len(chunk) {
				// Its spans are out: the chunk goes with the last of them.
				chunks[k], k, lo = nil, k+1, 0
			}
			size = min(2*size, fileChunk)
		}
	}()
	return jobs
}

// fileChunk is the most files one job reads.
const fileChunk = 2048

// chunkFiles copies files into chunks of fileChunk: a million files were
// one array of 40 MB held to the end of the load; each chunk goes once
// its files are read.
func chunkFiles(files []eventFile) [][]eventFile {
	chunks := make([][]eventFile, 0, (len(files)+fileChunk-1)/fileChunk)
	for lo := 0; lo < len(files); lo += fileChunk {
		chunks = append(chunks, slices.Clone(files[lo:min(lo+fileChunk, len(files))]))
	}
	return chunks
}

// readSpan reads and decodes a run of event files, in order, into s.
func readSpan(ctx context.Context, span []eventFile, prefix string, read func(name string, s *slab) ([]byte, error), s *slab) part {
	p := part{Events: make([]model.Event, 0, len(span))}
	for i, f := range span {
		if i%cancelCheck == cancelCheck-1 && ctx.Err() != nil {
			return p
		}
		// A Reader reads once: the name is not needed again, and a
		// million of them were 64 MB held to the end of the load.
		span[i] = eventFile{}
		raw, err := read(f.Name, s)
		if err != nil {
			// Names are joined only here: on the path of every event that
			// reads, the join was an allocation per event.
			if ev, warn, ok := placeholderFor(prefix+f.Name, err); ok {
				p.Events, p.Warnings = append(p.Events, ev), append(p.Warnings, warn)
			} else {
				p.Warnings = append(p.Warnings, sanitize.Line(prefix+f.Name+": cannot read: "+shortError(err)))
			}
			continue
		}
		ev, warn, ok := decodeEvent(fileWhere(prefix, f.Name), raw)
		if warn != "" {
			p.Warnings = append(p.Warnings, warn)
		}
		if ok {
			p.Events = append(p.Events, ev)
		}
	}
	return p
}

// shortError drops the path an *fs.PathError repeats: warnings already
// name the file.
func shortError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// sanitizeAll sanitises warnings built from file names.
func sanitizeAll(warns []string) []string {
	for i, w := range warns {
		warns[i] = sanitize.Line(w)
	}
	return warns
}
