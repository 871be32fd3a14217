package jsonx

// Members walks the members of an object while validating it, handing the
// caller each key and the position of its value, so that Decode reads the
// fields it needs in the same pass that validates the event. It is a plain
// cursor rather than a callback so nothing it touches escapes to the heap.
type Members struct {
	data  []byte
	i     int
	depth int
	empty bool
	// trusted steps over keys and values without validating them, for
	// bytes that were validated before (Redecode).
	trusted bool
}

// OpenMembers starts walking the object whose '{' is at data[i], nested at
// depth.
func OpenMembers(data []byte, i, depth int, trusted bool) Members {
	m := Members{data: data, i: SkipWS(data, i+1), depth: depth, trusted: trusted}
	if m.i < len(data) && data[m.i] == '}' {
		m.empty = true
		m.i++
	}
	return m
}

// Next reads the next key and the colon after it and returns the key and
// the start of its value; ok is false at the end of an empty object.
func (m *Members) Next() (key []byte, vStart int, ok bool, err error) {
	if m.empty {
		return nil, 0, false, nil
	}
	data := m.data
	i := SkipWS(data, m.i)
	if i >= len(data) || data[i] != '"' {
		return nil, 0, false, SyntaxError(data, i, "looking for an object key")
	}
	var kEnd int
	if m.trusted {
		kEnd = SkipString(data, i)
	} else if kEnd, err = StringEnd(data, i); err != nil {
		return nil, 0, false, err
	}
	key = data[i+1 : kEnd-1]
	i = SkipWS(data, kEnd)
	if i >= len(data) || data[i] != ':' {
		return nil, 0, false, SyntaxError(data, i, "after object key")
	}
	return key, SkipWS(data, i+1), true, nil
}

// Value validates the plain value at vStart and returns its end.
func (m *Members) Value(vStart int) (int, error) {
	if m.trusted {
		return SkipValue(m.data, vStart), nil
	}
	return ValueEnd(m.data, vStart, m.depth+1)
}

// After moves past the value that ended at vEnd; done is true when that
// was the last member, and m.i is then just past the closing brace.
func (m *Members) After(vEnd int) (done bool, err error) {
	i := SkipWS(m.data, vEnd)
	if i >= len(m.data) {
		return false, SyntaxError(m.data, i, "looking for ',' or '}'")
	}
	switch m.data[i] {
	case ',':
		m.i = i + 1
		return false, nil
	case '}':
		m.i = i + 1
		m.empty = true
		return true, nil
	}
	return false, SyntaxError(m.data, i, "looking for ',' or '}'")
}

// ObjectFields validates the object at data[i] and calls fn with the key
// and value span of each member; for readers off the hot path (base
// state). It returns the index just past the object.
func ObjectFields(data []byte, i int, fn func(key, val []byte)) (int, error) {
	m := OpenMembers(data, i, 0, false)
	for {
		key, vStart, ok, err := m.Next()
		if err != nil {
			return 0, err
		}
		if !ok {
			return m.i, nil
		}
		vEnd, err := m.Value(vStart)
		if err != nil {
			return 0, err
		}
		fn(key, data[vStart:vEnd])
		if done, err := m.After(vEnd); err != nil {
			return 0, err
		} else if done {
			return m.i, nil
		}
	}
}

// End is the index just past the object once Next reported its end or
// After its last member.
func (m *Members) End() int { return m.i }

// Data is the JSON the members are read from.
func (m *Members) Data() []byte { return m.data }
