package compare

// A small scanner over raw event JSON: it finds one member of an object
// and walks a value without decoding it, so that a step's arguments are
// hashed straight from the bytes the log keeps (decoding every action with
// encoding/json would cost more than loading the recording).

// member returns the raw value of the member name of the JSON object raw,
// nil when raw is not an object or has no such member.
func member(raw []byte, name string) []byte {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil
	}
	i++
	for {
		i = skipSpace(raw, i)
		if i >= len(raw) || raw[i] != '"' {
			return nil
		}
		kEnd := skipString(raw, i)
		if kEnd < 0 {
			return nil
		}
		key := raw[i+1 : kEnd-1]
		i = skipSpace(raw, kEnd)
		if i >= len(raw) || raw[i] != ':' {
			return nil
		}
		i = skipSpace(raw, i+1)
		end := skipValue(raw, i)
		if end < 0 {
			return nil
		}
		if string(key) == name {
			return raw[i:end]
		}
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ',' {
			return nil
		}
		i++
	}
}

// stringValue returns the raw (still escaped) contents of the JSON string
// v, and false when v is not a string.
func stringValue(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	return string(v[1 : len(v)-1]), true
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(raw []byte, i int) int {
	for i < len(raw) {
		switch raw[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string starting at raw[i]
// (a quote), -1 when it does not end.
func skipString(raw []byte, i int) int {
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index just past the value starting at raw[i], -1
// when it does not end.
func skipValue(raw []byte, i int) int {
	if i >= len(raw) {
		return -1
	}
	switch raw[i] {
	case '"':
		return skipString(raw, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(raw); j++ {
			switch raw[j] {
			case '"':
				end := skipString(raw, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(raw) {
		switch raw[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		}
		j++
	}
	return j
}
