package files

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// eventFile is one event file of an events/ directory, placed by the index
// in its name.
type eventFile struct {
	Name  string // base name, e.g. event-00042-<uuid>.json
	Index int64  // NNNNN of the SDK layout, or the number of the seed layout
	ID    string // the event id in an SDK file name; "" for the seed layout
}

// parseSDKName parses an SDK event file name by the SDK's own rule
// (protocol §10): ^event-(\d{5,})-([0-9a-fA-F-]{8,})\.json$. It is written
// by hand because a 100k-entry directory is parsed on every load and every
// follow poll.
func parseSDKName(name string) (eventFile, bool) {
	rest, ok := strings.CutPrefix(name, "event-")
	if !ok {
		return eventFile{}, false
	}
	rest, ok = strings.CutSuffix(rest, ".json")
	if !ok {
		return eventFile{}, false
	}
	digits := 0
	var idx int64
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		idx = idx*10 + int64(rest[digits]-'0')
		digits++
	}
	// More than 18 digits may not fit an int64: ParseInt says.
	if digits < 5 || digits >= len(rest) || rest[digits] != '-' {
		return eventFile{}, false
	}
	id := rest[digits+1:]
	if len(id) < 8 {
		return eventFile{}, false
	}
	for i := 0; i < len(id); i++ {
		if !idBytes[id[i]] {
			return eventFile{}, false
		}
	}
	if digits > 18 {
		var err error
		if idx, err = strconv.ParseInt(rest[:digits], 10, 64); err != nil {
			return eventFile{}, false
		}
	}
	return eventFile{Name: name, Index: idx, ID: id}, true
}

// idBytes are the bytes that may appear in the id part of an SDK event
// file name: hex digits and dashes. A table: a 100k-file listing checks
// 3.6 million of them before the first event is read.
var idBytes = func() (t [256]bool) {
	for _, c := range []byte("0123456789abcdefABCDEF-") {
		t[c] = true
	}
	return t
}()

// parseSeedName parses a seed-layout file name: a number, then "_" or "-"
// and a description, then ".json" (0001_user_message.json).
func parseSeedName(name string) (eventFile, bool) {
	rest, ok := strings.CutSuffix(name, ".json")
	if !ok {
		return eventFile{}, false
	}
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	if digits == 0 || digits > 18 {
		return eventFile{}, false
	}
	if digits < len(rest) && rest[digits] != '_' && rest[digits] != '-' {
		return eventFile{}, false
	}
	idx, err := strconv.ParseInt(rest[:digits], 10, 64)
	if err != nil {
		return eventFile{}, false
	}
	return eventFile{Name: name, Index: idx}, true
}

// eventFiles picks the event files out of a directory listing and orders
// them by index (then name, so that two files sharing an index keep a
// stable order). SDK names win: the seed layout is used only when no file
// has an SDK name. Other names (.eventlog.lock, temporary files) are
// ignored.
func eventFiles(names []string) (files []eventFile, seed bool) {
	files = make([]eventFile, 0, len(names))
	for _, n := range names {
		if f, ok := parseSDKName(n); ok {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		for _, n := range names {
			if f, ok := parseSeedName(n); ok {
				files = append(files, f)
			}
		}
		seed = len(files) > 0
	}
	if placed, ok := placeByIndex(files); ok {
		return placed, seed
	}
	slices.SortFunc(files, func(a, b eventFile) int {
		if a.Index != b.Index {
			if a.Index < b.Index {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return files, seed
}

// placeByIndex orders files whose indices are exactly 0..n-1, the normal
// case, by putting each at its index: linear, where a sort of a 100k-file
// listing is a noticeable part of the time to the first screen. ok is
// false when the indices are anything else.
func placeByIndex(files []eventFile) (placed []eventFile, ok bool) {
	placed = make([]eventFile, len(files))
	filled := make([]bool, len(files))
	for _, f := range files {
		if f.Index < 0 || f.Index >= int64(len(files)) || filled[f.Index] {
			return nil, false
		}
		placed[f.Index], filled[f.Index] = f, true
	}
	return placed, true
}

// indexWarnings describes what is wrong with the indices of ordered SDK
// event files: missing indices (a gap, which the SDK's own loader stops
// at) and indices used twice. Every file is still read.
func indexWarnings(dir string, files []eventFile) []string {
	var warns []string
	want := int64(0)
	for i, f := range files {
		switch {
		case f.Index > want:
			warns = append(warns, gapWarning(dir, want, f.Index-1, f.Name))
		case f.Index < want && i > 0:
			warns = append(warns, fmt.Sprintf("%s%s: index %05d is used twice (also %s)", dir, f.Name, f.Index, files[i-1].Name))
		}
		want = f.Index + 1
	}
	return warns
}

// gapWarning says which indices are missing before the file named next.
func gapWarning(dir string, from, to int64, next string) string {
	if from == to {
		return fmt.Sprintf("%s: index gap: event %05d is missing (before %s)", strings.TrimSuffix(dir, "/")+"/", from, next)
	}
	return fmt.Sprintf("%s: index gap: events %05d-%05d are missing (before %s)", strings.TrimSuffix(dir, "/")+"/", from, to, next)
}
