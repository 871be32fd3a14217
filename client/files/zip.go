package files

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// maxZipEntry bounds the bytes read from one zip entry, so a crafted
// archive cannot claim an endless stream; real events stay far below it.
const maxZipEntry = 1 << 30

// openZip opens the trajectory zip of /api/file/download-trajectory/{id}:
// the conversation directory zipped, under whatever prefix. It finds
// base_state.json and events/ inside; when there are several, the
// shallowest base_state.json, or else the events/ directory with the most
// event files, wins.
func openZip(zipPath string) (*Reader, error) {
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return nil, fmt.Errorf("open conversation zip: %w", err)
	}
	entries := map[string]*zip.File{}
	byDir := map[string][]string{} // events/ directory → names of its files
	for _, f := range zr.File {
		name := strings.TrimPrefix(path.Clean("/"+f.Name), "/")
		if f.FileInfo().IsDir() {
			continue
		}
		entries[name] = f
		if dir := path.Dir(name); path.Base(dir) == eventsDirName {
			byDir[dir] = append(byDir[dir], path.Base(name))
		}
	}
	prefix, ok := zipPrefix(entries, byDir)
	if !ok {
		zr.Close()
		return nil, fmt.Errorf("%s: no conversation inside the zip (no base_state.json and no events/)", zipPath)
	}
	read := func(name string, s *slab) ([]byte, error) {
		f, ok := entries[path.Join(prefix, name)]
		if !ok {
			return nil, fs.ErrNotExist
		}
		return readZipEntry(f, s)
	}
	readMeta := func(name string) ([]byte, error) { return read(name, nil) }
	dirName := path.Base(prefix)
	if prefix == "." {
		dirName = strings.TrimSuffix(filepath.Base(zipPath), filepath.Ext(zipPath))
	}
	r := &Reader{close: zr.Close, readWhole: readMeta}
	openMeta := func(name string) (io.ReadCloser, error) {
		f, ok := entries[path.Join(prefix, name)]
		if !ok {
			return nil, fs.ErrNotExist
		}
		return f.Open()
	}
	r.header, _ = readHeader(zipPath, dirName, readMeta, openMeta)
	files, seed := eventFiles(byDir[path.Join(prefix, eventsDirName)])
	if !seed {
		r.header.Warnings = append(r.header.Warnings, sanitizeAll(indexWarnings("events/", files))...)
	}
	readEvent := func(name string, s *slab) ([]byte, error) {
		if f, ok := entries[path.Join(prefix, eventsDirName, name)]; ok && f.UncompressedSize64 > MaxEventBytes {
			// Not read whole, as a file of a directory would not be: a
			// 100 KB archive can hold a 1 GB event.
			return nil, readZipHead(f)
		}
		return read(path.Join(eventsDirName, name), s)
	}
	if r.header.Title == "" {
		r.header.Title = probeTitle(files, func(name string) ([]byte, error) { return readEvent(name, nil) })
	}
	r.total, r.files = int64(len(files)), len(files)
	chunks := chunkFiles(files)
	r.jobs = func(ctx context.Context) <-chan job { return fileJobs(ctx, chunks, "events/", readEvent) }
	return r, nil
}

// zipPrefix finds the conversation directory inside a zip ("." for the
// root).
func zipPrefix(entries map[string]*zip.File, byDir map[string][]string) (string, bool) {
	best, found := "", false
	for name := range entries {
		if path.Base(name) != "base_state.json" {
			continue
		}
		dir := path.Dir(name)
		if !found || depth(dir) < depth(best) || depth(dir) == depth(best) && dir < best {
			best, found = dir, true
		}
	}
	if found {
		return best, true
	}
	most := 0
	for dir, names := range byDir {
		files, _ := eventFiles(names)
		parent := path.Dir(dir)
		if len(files) > most || len(files) == most && len(files) > 0 && parent < best {
			best, most, found = parent, len(files), true
		}
	}
	return best, found
}

// depth counts the directories in a slash path ("." has none).
func depth(dir string) int {
	if dir == "." {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

// readZipHead reads the head of an event entry over the limit for one
// event, for its placeholder (see readHead).
func readZipHead(f *zip.File) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	return readHead(rc, int64(f.UncompressedSize64), MaxEventBytes)
}

// readZipEntry reads one zip entry whole; archive/zip checks its size and
// CRC as it reads.
func readZipEntry(f *zip.File, s *slab) ([]byte, error) {
	if f.UncompressedSize64 > maxZipEntry {
		return nil, fmt.Errorf("entry of %d bytes is over the %d-byte limit", f.UncompressedSize64, maxZipEntry)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return s.read(rc, int(f.UncompressedSize64))
}
