package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"ohwatch/reducer"
)

// tuiExport is the TUI's export key: where an export goes by default, and
// the writing of one. Exports are kept under the user's state directory
// ($XDG_STATE_HOME/ohwatch/exports, else ~/.local/state/ohwatch/exports),
// not dropped in whatever directory the TUI was started from.
type tuiExport struct {
	id       string // the conversation's id, "" when not known
	title    string
	log      *reducer.Log
	recorded bool // the log is a recording, whose last status is final
	getenv   func(string) string
	now      func() time.Time
}

// exportDir is the directory exports go to by default.
func exportDir(getenv func(string) string) string {
	base := getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(base) { // the spec ignores a relative value
		base = filepath.Join(getenv("HOME"), ".local", "state")
	}
	return filepath.Join(base, "ohwatch", "exports")
}

// defaultPath is the path the export prompt offers: a short name from the
// title and the time.
func (e tuiExport) defaultPath(format string) string {
	name := fmt.Sprintf("%s-%s.%s", slug(e.title), e.now().UTC().Format("20060102-150405"), format)
	return filepath.Join(exportDir(e.getenv), name)
}

// write writes the conversation as it is now to path (the default when
// empty; "~/" is the home directory), creating its directory, never over
// an existing file, and returns the absolute path written.
func (e tuiExport) write(format, path string) (string, error) {
	if !ValidFormat(format) {
		return "", fmt.Errorf("unknown export format %q", format)
	}
	path = strings.TrimSpace(path)
	if path == "" {
		path = e.defaultPath(format)
	}
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		path = filepath.Join(e.getenv("HOME"), rest)
	}
	path, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("%s exists: not overwritten", path)
	}
	if err != nil {
		return "", err
	}
	werr := WriteExport(f, format, e.id, e.title, e.log, e.log.HeadPath(), nil, e.recorded)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return path, werr
}
