package model

import (
	"encoding/binary"
	"math/bits"
)

// Stepping over values that readTopObject or valueEnd already validated:
// the second look at an event's nested fields needs no checks, only speed.

// skipStringLit returns the index just past the already validated string
// literal whose opening quote is at i, eight bytes at a time.
func skipStringLit(data []byte, i int) int {
	i++
	for {
		for i+8 <= len(data) {
			w := binary.LittleEndian.Uint64(data[i:])
			if m := hasZero(w^(ones*'"')) | hasZero(w^(ones*'\\')); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
			i += 8
		}
		if i >= len(data) {
			return len(data)
		}
		switch data[i] {
		case '"':
			return i + 1
		case '\\':
			i += 2
		default:
			i++
		}
	}
}

// skipValue returns the index just past the already validated value that
// starts at i (after whitespace), without validating it again.
func skipValue(data []byte, i int) int {
	i = skipWS(data, i)
	if i >= len(data) {
		return i
	}
	switch data[i] {
	case '"':
		return skipStringLit(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = skipStringLit(data, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(data) {
		switch data[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// eachField calls fn with the raw key (without quotes) and the value span of
// every member of the already validated object obj, in order; fn returns
// false to stop.
func eachField(obj []byte, fn func(key, val []byte) bool) {
	i := skipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	i = skipWS(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		kEnd := skipStringLit(obj, i)
		key := obj[i+1 : kEnd-1]
		i = skipWS(obj, kEnd) + 1 // past ':'
		vStart := skipWS(obj, i)
		vEnd := skipValue(obj, vStart)
		if !fn(key, obj[vStart:vEnd]) {
			return
		}
		i = skipWS(obj, vEnd)
		if i < len(obj) && obj[i] == ',' {
			i = skipWS(obj, i+1)
		}
	}
}

// eachElement calls fn with the span of every element of the already
// validated array arr; fn returns false to stop.
func eachElement(arr []byte, fn func(val []byte) bool) {
	i := skipWS(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	i = skipWS(arr, i+1)
	for i < len(arr) && arr[i] != ']' {
		vEnd := skipValue(arr, i)
		if !fn(arr[i:vEnd]) {
			return
		}
		i = skipWS(arr, vEnd)
		if i < len(arr) && arr[i] == ',' {
			i = skipWS(arr, i+1)
		}
	}
}

// jsonType names the type of the value span v for error messages.
func jsonType(v []byte) string {
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}
