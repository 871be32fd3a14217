//go:build !linux

package files

import "path/filepath"

// dirFiles reads the files of one directory by path.
type dirFiles struct {
	prefix string
}

// openDirFiles opens dir for reading its files.
func openDirFiles(dir string) (*dirFiles, error) {
	return &dirFiles{prefix: dir + string(filepath.Separator)}, nil
}

// read reads the file name of the directory whole (see readFile).
func (d *dirFiles) read(name string, s *slab) ([]byte, error) {
	return readFile(d.prefix+name, s)
}

// Close releases nothing: files are opened by path.
func (d *dirFiles) Close() error { return nil }
