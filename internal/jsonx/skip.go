package jsonx

import "bytes"

// Stepping over values that ValueEnd (or a Members walk) already validated:
// the second look at an event's nested fields needs no checks, only speed.

// SkipString returns the index just past the already validated string
// literal whose opening quote is at i. It looks for the next quote with
// bytes.IndexByte (vector instructions: most of an event is the text of
// long strings) and counts the backslashes before it: after an odd number
// the quote is escaped and the string goes on.
func SkipString(data []byte, i int) int {
	i++
	for {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 {
			return len(data)
		}
		i += q
		bs := 0
		for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
			bs++
		}
		i++
		if bs%2 == 0 {
			return i
		}
	}
}

// SkipValue returns the index just past the already validated value that
// starts at i (after whitespace), without validating it again.
func SkipValue(data []byte, i int) int {
	i = SkipWS(data, i)
	if i >= len(data) {
		return i
	}
	switch data[i] {
	case '"':
		return SkipString(data, i)
	case '{', '[':
		depth := 0
		for i < len(data) {
			switch data[i] {
			case '"':
				i = SkipString(data, i)
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

// EachField calls fn with the raw key (without quotes) and the value span of
// every member of the already validated object obj, in order; fn returns
// false to stop.
func EachField(obj []byte, fn func(key, val []byte) bool) {
	i := SkipWS(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	i = SkipWS(obj, i+1)
	for i < len(obj) && obj[i] == '"' {
		kEnd := SkipString(obj, i)
		key := obj[i+1 : kEnd-1]
		i = SkipWS(obj, kEnd) + 1 // past ':'
		vStart := SkipWS(obj, i)
		vEnd := SkipValue(obj, vStart)
		if !fn(key, obj[vStart:vEnd]) {
			return
		}
		i = SkipWS(obj, vEnd)
		if i < len(obj) && obj[i] == ',' {
			i = SkipWS(obj, i+1)
		}
	}
}

// EachElement calls fn with the span of every element of the already
// validated array arr; fn returns false to stop.
func EachElement(arr []byte, fn func(val []byte) bool) {
	i := SkipWS(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	i = SkipWS(arr, i+1)
	for i < len(arr) && arr[i] != ']' {
		vEnd := SkipValue(arr, i)
		if !fn(arr[i:vEnd]) {
			return
		}
		i = SkipWS(arr, vEnd)
		if i < len(arr) && arr[i] == ',' {
			i = SkipWS(arr, i+1)
		}
	}
}

// Type names the type of the value span v for error messages.
func Type(v []byte) string {
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
