package jsonx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// This file is the validating half of the lean decoder used on the hot
// path (Decode, DecodeStats, DecodeBaseState): a scanner over the raw bytes
// that finds the span of each value without building anything, so the few
// fields needed are read and multi-megabyte strings (file contents, command
// output, system prompts) are stepped over at memory speed. Typed payloads
// (model.Event.Detail) go through encoding/json instead.
//
// It pays for itself on the 100k-event load: model.Decode over it reads
// 310-540 MB/s of generated events, encoding/json reading only their
// envelope 40-45 MB/s, encoding/json/v2 165-230 MB/s, gjson 30-70 MB/s
// (`go test -run '^$' -bench DecodeRace ./model`).

// MaxDepth bounds the nesting of arrays and objects: deeper input is
// rejected as an error rather than risking the stack.
const MaxDepth = 1000

// ErrTooDeep is returned for input nested beyond maxDepth.
var ErrTooDeep = errors.New("nesting deeper than 1000 levels")

// SyntaxError describes malformed JSON at a byte offset.
func SyntaxError(data []byte, i int, what string) error {
	if i >= len(data) {
		return fmt.Errorf("unexpected end of input at byte %d (truncated?): %s", i, what)
	}
	return fmt.Errorf("invalid character %q at byte %d: %s", data[i], i, what)
}

// SkipWS returns the index of the first non-whitespace byte at or after i.
func SkipWS(data []byte, i int) int {
	for i < len(data) {
		// Every byte above the space is not whitespace: one compare for
		// the byte nearly every call meets, a token's first.
		if c := data[i]; c > ' ' || c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return i
		}
		i++
	}
	return i
}

// StringEnd returns the index just past the string literal whose opening
// quote is at i, validating its escapes. It looks at eight bytes at a time
// for a quote, a backslash or a control character, since most of an event
// is the plain text of long strings.
func StringEnd(data []byte, i int) (int, error) {
	i++
	for {
		for i+8 <= len(data) {
			w := binary.LittleEndian.Uint64(data[i:])
			if m := HasLess(w, 0x20) | HasZero(w^(Ones*'"')) | HasZero(w^(Ones*'\\')); m != 0 {
				// The lowest flagged byte is exact: jump straight to it.
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		if i >= len(data) {
			return 0, SyntaxError(data, i, "in string literal")
		}
		switch c := data[i]; {
		case c == '"':
			return i + 1, nil
		case c == '\\':
			if i+1 >= len(data) {
				return 0, SyntaxError(data, i+1, "in string escape")
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(data) {
					return 0, SyntaxError(data, len(data), "in \\u escape")
				}
				for _, h := range data[i+2 : i+6] {
					if !isHex(h) {
						return 0, SyntaxError(data, i+2, "in \\u escape")
					}
				}
				i += 6
			default:
				return 0, SyntaxError(data, i+1, "in string escape")
			}
		case c < 0x20:
			return 0, SyntaxError(data, i, "control character in string")
		default:
			i++
		}
	}
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// ValueEnd validates the JSON value starting at i (after whitespace) and
// returns the index just past it.
func ValueEnd(data []byte, i, depth int) (int, error) {
	i = SkipWS(data, i)
	if i >= len(data) {
		return 0, SyntaxError(data, i, "looking for a value")
	}
	switch c := data[i]; {
	case c == '"':
		return StringEnd(data, i)
	case c == '{' || c == '[':
		if depth >= MaxDepth {
			return 0, ErrTooDeep
		}
		return ContainerEnd(data, i, depth+1)
	case c == 't':
		return literalEnd(data, i, "true")
	case c == 'f':
		return literalEnd(data, i, "false")
	case c == 'n':
		return literalEnd(data, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return NumberEnd(data, i)
	}
	return 0, SyntaxError(data, i, "looking for a value")
}

// ContainerEnd validates the object or array opening at i.
func ContainerEnd(data []byte, i, depth int) (int, error) {
	isObject := data[i] == '{'
	closer := byte(']')
	if isObject {
		closer = '}'
	}
	i = SkipWS(data, i+1)
	if i < len(data) && data[i] == closer {
		return i + 1, nil
	}
	for {
		var err error
		if isObject {
			i = SkipWS(data, i)
			if i >= len(data) || data[i] != '"' {
				return 0, SyntaxError(data, i, "looking for an object key")
			}
			if i, err = StringEnd(data, i); err != nil {
				return 0, err
			}
			i = SkipWS(data, i)
			if i >= len(data) || data[i] != ':' {
				return 0, SyntaxError(data, i, "after object key")
			}
			i++
		}
		if i, err = ValueEnd(data, i, depth); err != nil {
			return 0, err
		}
		i = SkipWS(data, i)
		if i >= len(data) {
			return 0, SyntaxError(data, i, "looking for ',' or a closing bracket")
		}
		switch data[i] {
		case ',':
			i++
		case closer:
			return i + 1, nil
		default:
			return 0, SyntaxError(data, i, "looking for ',' or a closing bracket")
		}
	}
}

// literalEnd validates the literal true, false or null at i.
func literalEnd(data []byte, i int, lit string) (int, error) {
	if len(data)-i < len(lit) || string(data[i:i+len(lit)]) != lit {
		return 0, SyntaxError(data, i, "in literal "+lit)
	}
	return i + len(lit), nil
}

// NumberEnd validates a JSON number (RFC 8259 grammar).
func NumberEnd(data []byte, i int) (int, error) {
	if data[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(data) && data[i] == '0' {
		i++
	} else if digits() == 0 {
		return 0, SyntaxError(data, i, "in number")
	}
	if i < len(data) && data[i] == '.' {
		i++
		if digits() == 0 {
			return 0, SyntaxError(data, i, "after decimal point in number")
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, SyntaxError(data, i, "in exponent of number")
		}
	}
	return i, nil
}
