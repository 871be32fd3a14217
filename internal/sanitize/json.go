package sanitize

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"ohwatch/internal/arena"
	"ohwatch/internal/jsonx"
)

// JSON returns a JSON value compacted onto one line with every
// character a terminal could act on written as a \u escape: C1 controls,
// DEL, bidi embeddings, overrides, isolates and marks, zero-width and other
// format characters, line and paragraph separators (the runes Text
// marks). Invalid UTF-8 becomes \ufffd. Outside strings JSON allows none
// of these, so the result is the same JSON value (invalid UTF-8 aside),
// safe to print as it stands. It is the one rule for every output of raw
// events that can reach a terminal (replay --json, export --format jsonl).
// ok is false when raw is not valid JSON; nothing is returned then.
func JSON(raw []byte) (out []byte, ok bool) {
	src, ok := appendCompact(make([]byte, 0, len(raw)), raw)
	if !ok {
		return nil, false
	}
	if isClean(bytesView(src), false) {
		return src, true
	}
	return appendTerminalSafe(make([]byte, 0, len(src)+16), src), true
}

// AppendJSON is JSON appending to dst. scratch
// holds the compacted value on the way: a caller writing many events keeps
// both and so allocates nothing per event once they have grown. When raw
// is not valid JSON, dst is returned as it was and ok is false.
func AppendJSON(dst []byte, scratch *bytes.Buffer, raw []byte) (out []byte, ok bool) {
	scratch.Reset()
	compact, ok := appendCompact(scratch.AvailableBuffer(), raw)
	if !ok {
		return dst, false
	}
	return appendSafeCompact(dst, scratch, compact), true
}

// AppendDecodedJSON is AppendJSON for bytes Decode
// accepted, unchanged since (a log's stored events): they are one JSON
// object already, so they are not validated again, which was a third of
// writing a `replay --json` line. Given anything else it writes what it
// makes of it, never more than raw's bytes and their escapes.
func AppendDecodedJSON(dst []byte, scratch *bytes.Buffer, raw []byte) []byte {
	// Compacted straight into dst, which nearly always needs nothing
	// more: going through scratch copied every event twice over.
	start := len(dst)
	dst = appendCompactRuns(dst, raw)
	if isClean(bytesView(dst[start:]), false) {
		return dst
	}
	scratch.Reset()
	scratch.Write(dst[start:])
	return appendTerminalSafe(dst[:start], scratch.Bytes())
}

// appendSafeCompact appends compact, which it keeps in scratch for the
// next call's buffer, made terminal-safe.
func appendSafeCompact(dst []byte, scratch *bytes.Buffer, compact []byte) []byte {
	scratch.Write(compact) // keeps the grown buffer for the next event
	src := scratch.Bytes()
	if isClean(bytesView(src), false) {
		return append(dst, src...)
	}
	return appendTerminalSafe(dst, src)
}

// appendCompact appends raw with the whitespace between its tokens
// elided, exactly as json.Compact writes it; ok is false when raw is not
// one JSON value. It validates with the decoder's scanner and then copies
// the runs between whitespace whole, strings at a time: json.Compact
// steps a state machine through every byte, and was two thirds of a
// `replay --json` line. What the scanner refuses (a value nested past
// its depth limit, which json.Compact allows, or bad JSON) is left to
// json.Compact, so the two accept the same. It pays: over the project's
// recordings (`go test -run '^$' -bench CompactRace ./internal/sanitize`)
// it compacts 520-640 MB/s, json.Compact 58-72 MB/s.
func appendCompact(dst, raw []byte) ([]byte, bool) {
	start := jsonx.SkipWS(raw, 0)
	end, err := jsonx.ValueEnd(raw, start, 0)
	if err != nil || jsonx.SkipWS(raw, end) != len(raw) {
		buf := bytes.NewBuffer(dst)
		if json.Compact(buf, raw) != nil {
			return dst, false
		}
		return buf.Bytes(), true
	}
	return appendCompactRuns(dst, raw[start:end]), true
}

// appendCompactRuns appends src, one valid JSON value, without the
// whitespace around and between its tokens: the runs between whitespace
// are copied whole, strings at a time.
func appendCompactRuns(dst, src []byte) []byte {
	run := 0
	for i := 0; i < len(src); {
		switch c := src[i]; c {
		case '"':
			i = jsonx.SkipString(src, i)
		case ' ', '\t', '\n', '\r':
			dst = append(dst, src[run:i]...)
			i = jsonx.SkipWS(src, i)
			run = i
		default:
			i++
		}
	}
	return append(dst, src[run:]...)
}

// bytesView is b as a string without copying it, for a scan that neither
// keeps nor outlives it: string(b) would copy every event once more.
func bytesView(b []byte) string { return arena.String(b) }

// appendTerminalSafe appends compact JSON src with the characters a
// terminal could act on escaped.
func appendTerminalSafe(out, src []byte) []byte {
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			if c == 0x7f { // DEL: JSON allows it raw in a string
				out = jsonx.AppendRuneEscape(out, 0x7f)
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\ufffd`...)
		case unprintable(r):
			out = jsonx.AppendRuneEscape(out, r)
		default:
			out = append(out, src[i:i+size]...)
		}
		i += size
	}
	return out
}
