package compare

import (
	"bytes"

	"ohwatch/internal/jsonx"
)

// Two calls that do the same thing should compare equal even when they
// differ in what a run cannot help: the whitespace of a command, the ids
// the tools and the SDK hand out, the random name of a temporary
// directory. A value is hashed after normalising every string in it:
// whitespace runs (escaped newlines and tabs included) become one space
// and the ends are trimmed; a UUID or a run of 32 or more hex digits reads
// "<id>"; the random first segment of an absolute temporary path (/tmp/…,
// macOS's /var/folders/…/T/…) reads "<tmp>". Outside strings, whitespace
// is dropped.

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hasher is FNV-1a over the normalised bytes; buf is reused for each
// string.
type hasher struct {
	h   uint64
	buf []byte
}

func newHasher() *hasher { return &hasher{h: fnvOffset} }

func (h *hasher) reset() { h.h = fnvOffset }

func (h *hasher) byte(c byte) {
	h.h ^= uint64(c)
	h.h *= fnvPrime
}

func (h *hasher) bytes(b []byte) {
	for _, c := range b {
		h.byte(c)
	}
}

// value hashes the JSON value v, normalised.
func (h *hasher) value(v []byte) {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			end := jsonx.SkipString(v, i)
			h.byte('"')
			h.bytes(normaliseString(h.buf[:0], v[i+1:max(end-1, i+1)], &h.buf))
			h.byte('"')
			i = end - 1
		default:
			h.byte(c)
		}
	}
}

// normaliseString writes the normalised form of the escaped JSON string
// contents s to dst; keep receives the grown buffer for reuse.
func normaliseString(dst, s []byte, keep *[]byte) []byte {
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		ws := c == ' ' || c == '\t' || c == '\n' || c == '\r'
		if c == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n', 't', 'r':
				ws = true
				i++
			default:
				dst = append(dst, c, s[i+1])
				i++
				space = false
				continue
			}
		}
		if ws {
			space = true
			continue
		}
		if space && len(dst) > 0 {
			dst = append(dst, ' ')
		}
		space = false
		dst = append(dst, c)
	}
	dst = replaceIDs(dst)
	dst = replaceTempDirs(dst)
	*keep = dst
	return dst
}

// isHex reports whether c is a hex digit (either case).
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// uuidShape is where a dashed UUID has its dashes.
var uuidDashes = [...]int{8, 13, 18, 23}

// replaceIDs rewrites, in place, every UUID and every run of 32 or more
// hex digits in b as "<id>".
func replaceIDs(b []byte) []byte {
	out := b[:0]
	for i := 0; i < len(b); {
		if n := idAt(b, i); n > 0 && (i == 0 || !isWord(b[i-1])) {
			out = append(out, "<id>"...)
			i += n
			continue
		}
		out = append(out, b[i])
		i++
	}
	return out
}

// idAt is the length of the id starting at b[i], 0 when none does.
func idAt(b []byte, i int) int {
	if i+36 <= len(b) && isUUID(b[i:i+36]) && (i+36 == len(b) || !isWord(b[i+36])) {
		return 36
	}
	n := 0
	for i+n < len(b) && isHex(b[i+n]) {
		n++
	}
	if n >= 32 && (i+n == len(b) || !isWord(b[i+n])) {
		return n
	}
	return 0
}

// isUUID reports whether b (36 bytes) is a dashed UUID.
func isUUID(b []byte) bool {
	d := 0
	for k, c := range b {
		if d < len(uuidDashes) && k == uuidDashes[d] {
			if c != '-' {
				return false
			}
			d++
			continue
		}
		if !isHex(c) {
			return false
		}
	}
	return true
}

// isWord reports whether c continues a word (an id inside a longer word is
// not an id).
func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// tempRoots are the directories whose next segment a run names at random.
var tempRoots = []string{"/tmp/", "/var/tmp/", "/T/"}

// replaceTempDirs rewrites, in place, the random segment after a temporary
// root ("/tmp/tmpk2j9x1/out.txt" → "/tmp/<tmp>/out.txt"). A segment is
// random when it is at least six characters long and holds a digit or
// starts with "tmp": "/tmp/out.txt" stays as it is.
func replaceTempDirs(b []byte) []byte {
	for _, root := range tempRoots {
		for from := 0; ; {
			k := indexFrom(b, root, from)
			if k < 0 {
				break
			}
			start := k + len(root)
			end := start
			for end < len(b) && b[end] != '/' && b[end] != ' ' && b[end] != '"' && b[end] != '\'' && b[end] != '\\' {
				end++
			}
			from = start
			if !randomSegment(b[start:end]) {
				continue
			}
			b = append(b[:start], append([]byte("<tmp>"), b[end:]...)...)
			from = start + len("<tmp>")
		}
	}
	return b
}

// randomSegment reports whether a path segment looks generated.
func randomSegment(seg []byte) bool {
	if len(seg) < 6 {
		return false
	}
	if len(seg) >= 3 && string(seg[:3]) == "tmp" {
		return true
	}
	for _, c := range seg {
		if c >= '0' && c <= '9' {
			return true
		}
	}
	return false
}

// indexFrom is the index of sub in b at or after from, -1 when absent.
func indexFrom(b []byte, sub string, from int) int {
	k := bytes.Index(b[from:], []byte(sub))
	if k < 0 {
		return -1
	}
	return from + k
}
