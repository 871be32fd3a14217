package model

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"ohwatch/internal/jsonx"
	"ohwatch/internal/sanitize"
)

// ReadBaseState reads a base_state.json from r as DecodeBaseState reads
// one in memory, without ever holding it whole: a long conversation's is
// mostly the stats' per-call lists (166 MB for the 304,079 LLM calls of a
// million events), which are decoded one call at a time, straight into
// the Metrics' lists, while the rest of the document (its "skeleton": the
// status, title, policy, accumulated usage, …) is gathered and decoded by
// DecodeBaseState. limit bounds the skeleton and each call's entry, so a
// file of any size is read in memory bounded by limit and by the calls'
// decoded lists, never by the file.
//
// The result shares no memory with what was read (Raw is nil), and keeps
// of each call what the reducer attributes to events: its tokens,
// response id, cost and timestamp. The latency list is not kept (ohwatch
// shows no latency, and its response ids repeat the token usages'), only
// counted when it is the one list a usage has.
func ReadBaseState(r io.Reader, limit int) (*BaseState, error) {
	s := &baseStream{br: bufio.NewReaderSize(r, 256<<10), limit: limit, lists: map[string]*callLists{}}
	if err := s.document(); err != nil {
		return nil, fmt.Errorf("base state: %w", err)
	}
	b, err := DecodeBaseState(s.skel)
	if err != nil {
		return nil, err
	}
	b = b.Detached()
	if b.Stats != nil {
		for id, m := range b.Stats.UsageToMetrics {
			if l := s.lists[id]; l != nil && m != nil {
				// Copied to their length: grown by appending they held an
				// eighth more on average (2 MB of a million-event
				// conversation's 304,079 calls), for as long as the log.
				m.Costs, m.TokenUsages = exact(l.costs), exact(l.usages)
				if len(l.costs) == 0 && len(l.usages) == 0 && l.latencies > 0 {
					// Only latencies recorded: they still say calls were
					// listed (reducer.listsCalls).
					m.Latencies = make([]Latency, l.latencies)
				}
			}
		}
	}
	return b, nil
}

// exact is s in a slice of its own length.
func exact[T any](s []T) []T {
	if cap(s) == len(s) {
		return s
	}
	out := make([]T, len(s))
	copy(out, s)
	return out
}

// callLists are one usage id's per-call lists as they are streamed.
type callLists struct {
	costs     []Cost
	usages    []TokenUsage
	latencies int
}

// baseStream walks a base_state.json from a reader: the per-call lists of
// stats.usage_to_metrics.<id> into lists, everything else into skel.
type baseStream struct {
	br    *bufio.Reader
	limit int
	off   int64 // bytes consumed, for the position in an error
	skel  []byte
	elem  []byte // one per-call entry, reused
	lists map[string]*callLists
	r     leanReader
}

// truncated is the error for the end of the input inside the document,
// at offset off: it wraps io.ErrUnexpectedEOF.
func truncated(off int64) error {
	return fmt.Errorf("truncated JSON (ends at offset %d): %w", off, io.ErrUnexpectedEOF)
}

// byteAfterWS consumes whitespace and returns the next byte, consumed.
func (s *baseStream) byteAfterWS() (byte, error) {
	for {
		c, err := s.br.ReadByte()
		if err != nil {
			if err == io.EOF {
				return 0, truncated(s.off)
			}
			return 0, err
		}
		s.off++
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return c, nil
		}
	}
}

// unexpected is the error for byte c, just consumed, where what was
// looked for.
func (s *baseStream) unexpected(c byte, what string) error {
	return fmt.Errorf("invalid character %q at byte %d: %s", c, s.off-1, what)
}

// document reads the top-level object and what follows it (whitespace
// only).
func (s *baseStream) document() error {
	c, err := s.byteAfterWS()
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) && s.off == 0 {
			return errors.New("empty input")
		}
		return err
	}
	if c != '{' {
		return s.unexpected(c, "looking for '{'")
	}
	s.skel = append(s.skel, '{')
	if err := s.members(s.topMember); err != nil {
		return err
	}
	for {
		c, err := s.br.ReadByte()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		s.off++
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return s.unexpected(c, "after the end of the object")
		}
	}
}

// members reads an object's members after its '{' (already in skel) up to
// and including its '}', copying each key to skel and handing its value
// to member, which sees the key's raw body and the value's first byte.
func (s *baseStream) members(member func(key []byte, first byte) error) error {
	for n := 0; ; n++ {
		c, err := s.byteAfterWS()
		if err != nil {
			return err
		}
		if c == '}' && n == 0 {
			s.skel = append(s.skel, '}')
			return nil
		}
		if n > 0 {
			switch c {
			case '}':
				s.skel = append(s.skel, '}')
				return nil
			case ',':
			default:
				return s.unexpected(c, "after an object member")
			}
			s.skel = append(s.skel, ',')
			if c, err = s.byteAfterWS(); err != nil {
				return err
			}
		}
		if c != '"' {
			return s.unexpected(c, "looking for a member's name")
		}
		at := len(s.skel)
		if s.skel, err = s.copyValue(s.skel, c); err != nil {
			return err
		}
		key := s.skel[at+1 : len(s.skel)-1]
		if c, err = s.byteAfterWS(); err != nil {
			return err
		}
		if c != ':' {
			return s.unexpected(c, "after a member's name")
		}
		s.skel = append(s.skel, ':')
		if c, err = s.byteAfterWS(); err != nil {
			return err
		}
		if err := member(key, c); err != nil {
			return err
		}
	}
}

// rest copies the value starting with first to skel.
func (s *baseStream) rest(first byte) error {
	var err error
	s.skel, err = s.copyValue(s.skel, first)
	return err
}

// topMember descends into "stats"; any other value is copied.
func (s *baseStream) topMember(key []byte, first byte) error {
	if string(key) != "stats" || first != '{' {
		return s.rest(first)
	}
	s.skel = append(s.skel, '{')
	return s.members(func(key []byte, first byte) error {
		if k := string(key); k != "usage_to_metrics" && k != "service_to_metrics" || first != '{' {
			return s.rest(first)
		}
		s.skel = append(s.skel, '{')
		return s.members(func(id []byte, first byte) error {
			if first != '{' {
				return s.rest(first)
			}
			l := &callLists{}
			// The same key as readStats gives the usage; a usage named
			// twice keeps its last lists, as its Metrics are the last.
			s.lists[sanitize.Line(internName(id))] = l
			s.skel = append(s.skel, '{')
			return s.members(func(key []byte, first byte) error {
				return s.metricsMember(l, string(key), first)
			})
		})
	})
}

// metricsMember streams a per-call list into l (leaving "[]" in skel);
// any other value is copied.
func (s *baseStream) metricsMember(l *callLists, key string, first byte) error {
	var each func(el []byte)
	switch key {
	case "costs":
		each = func(el []byte) {
			// Names come from the name cache, never el's bytes.
			c, _ := readCost(&s.r, el, 0)
			l.costs = append(l.costs, c)
		}
	case "token_usages":
		each = func(el []byte) {
			t, _ := readTokenUsage(&s.r, el, 0, "metrics.token_usages[]")
			t.ResponseID = strings.Clone(t.ResponseID)
			l.usages = append(l.usages, t)
		}
	case "response_latencies":
		each = func(el []byte) {
			readLatency(&s.r, el, 0)
			l.latencies++
		}
	}
	if each == nil || first != '[' {
		return s.rest(first)
	}
	s.skel = append(s.skel, '[', ']')
	for n := 0; ; n++ {
		c, err := s.byteAfterWS()
		if err != nil {
			return err
		}
		if c == ']' {
			return nil
		}
		if n > 0 {
			if c != ',' {
				return s.unexpected(c, "after an array element")
			}
			if c, err = s.byteAfterWS(); err != nil {
				return err
			}
		}
		at := s.off - 1
		if s.elem, err = s.copyValue(s.elem[:0], c); err != nil {
			return err
		}
		if end, err := jsonx.ValueEnd(s.elem, 0, 0); err != nil || end != len(s.elem) {
			return fmt.Errorf("%s entry at byte %d is not one JSON value", key, at)
		}
		each(s.elem)
		if s.r.reason != "" {
			return errors.New(s.r.reason)
		}
	}
}

// copyValue appends the JSON value whose first byte (consumed) is first
// to dst, scanning only its structure (strings, nesting): DecodeBaseState
// and jsonx.ValueEnd validate it. It fails past the limit.
func (s *baseStream) copyValue(dst []byte, first byte) ([]byte, error) {
	dst = append(dst, first)
	var inString, escaped bool
	depth := 0
	switch first {
	case '"':
		inString = true
	case '{', '[':
		depth = 1
	default:
		// A scalar: up to the byte that ends it, left unread.
		for {
			buf, err := s.br.Peek(1)
			if err != nil {
				if err == io.EOF {
					return dst, nil
				}
				return dst, err
			}
			switch buf[0] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return dst, nil
			}
			s.br.Discard(1)
			s.off++
			dst = append(dst, buf[0])
			if len(dst) > s.limit {
				return dst, s.overLimit()
			}
		}
	}
	for {
		buf, err := s.br.Peek(max(1, s.br.Buffered()))
		if len(buf) == 0 {
			if err == io.EOF || err == nil {
				return dst, truncated(s.off)
			}
			return dst, err
		}
		end := -1
	scan:
		for i := 0; i < len(buf); i++ {
			c := buf[i]
			switch {
			case escaped:
				escaped = false
			case inString:
				// Most bytes of a value are in its strings: skip to the
				// next that ends or escapes.
				if j := bytes.IndexAny(buf[i:], `"\\`); j < 0 {
					i = len(buf) - 1
					continue
				} else {
					i += j
				}
				if buf[i] == '\\' {
					escaped = true
				} else {
					inString = false
					if depth == 0 {
						end = i + 1
						break scan
					}
				}
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				depth--
				if depth == 0 {
					end = i + 1
					break scan
				}
			}
		}
		n := len(buf)
		if end >= 0 {
			n = end
		}
		if len(dst)+n > s.limit {
			return dst, s.overLimit()
		}
		if len(dst)+n > cap(dst) {
			// Doubling, not append's gentler growth for big slices: a
			// skeleton grown to the limit allocates about twice the limit.
			dst = append(make([]byte, 0, min(max(2*cap(dst), len(dst)+n), s.limit)), dst...)
		}
		dst = append(dst, buf[:n]...)
		s.br.Discard(n)
		s.off += int64(n)
		if end >= 0 {
			return dst, nil
		}
	}
}

// overLimit is the error for a value past the limit.
func (s *baseStream) overLimit() error {
	return fmt.Errorf("over %s outside the per-call lists, at byte %d", ByteSize(int64(s.limit)), s.off)
}
