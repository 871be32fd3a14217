package model

// members walks the members of an object while validating it, handing the
// caller each key and the position of its value, so that Decode reads the
// fields it needs in the same pass that validates the event. It is a plain
// cursor rather than a callback so nothing it touches escapes to the heap.
type members struct {
	data  []byte
	i     int
	depth int
	empty bool
	// trusted steps over keys and values without validating them, for
	// bytes that were validated before (Redecode).
	trusted bool
}

// openMembers starts walking the object whose '{' is at data[i], nested at
// depth.
func openMembers(data []byte, i, depth int, trusted bool) members {
	m := members{data: data, i: skipWS(data, i+1), depth: depth, trusted: trusted}
	if m.i < len(data) && data[m.i] == '}' {
		m.empty = true
		m.i++
	}
	return m
}

// next reads the next key and the colon after it and returns the key and
// the start of its value; ok is false at the end of an empty object.
func (m *members) next() (key []byte, vStart int, ok bool, err error) {
	if m.empty {
		return nil, 0, false, nil
	}
	data := m.data
	i := skipWS(data, m.i)
	if i >= len(data) || data[i] != '"' {
		return nil, 0, false, syntaxError(data, i, "looking for an object key")
	}
	var kEnd int
	if m.trusted {
		kEnd = skipStringLit(data, i)
	} else if kEnd, err = stringEnd(data, i); err != nil {
		return nil, 0, false, err
	}
	key = data[i+1 : kEnd-1]
	i = skipWS(data, kEnd)
	if i >= len(data) || data[i] != ':' {
		return nil, 0, false, syntaxError(data, i, "after object key")
	}
	return key, skipWS(data, i+1), true, nil
}

// value validates the plain value at vStart and returns its end.
func (m *members) value(vStart int) (int, error) {
	if m.trusted {
		return skipValue(m.data, vStart), nil
	}
	return valueEnd(m.data, vStart, m.depth+1)
}

// after moves past the value that ended at vEnd; done is true when that
// was the last member, and m.i is then just past the closing brace.
func (m *members) after(vEnd int) (done bool, err error) {
	i := skipWS(m.data, vEnd)
	if i >= len(m.data) {
		return false, syntaxError(m.data, i, "looking for ',' or '}'")
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
	return false, syntaxError(m.data, i, "looking for ',' or '}'")
}

// readTopObject validates the event object at data[i] and stores the spans
// of the members Decode reads in f, reading an action or observation
// object's members into f as well. It returns the index just past the
// object. Trusted, it validates nothing (see Redecode).
func readTopObject(data []byte, i int, f *topFields, trusted bool) (int, error) {
	m := openMembers(data, i, 0, trusted)
	for {
		key, vStart, ok, err := m.next()
		if err != nil {
			return 0, err
		}
		if !ok {
			return m.i, nil
		}
		var vEnd int
		if nested := f.nestedFields(key); nested != nil && vStart < len(data) && data[vStart] == '{' {
			vEnd, err = readNestedObject(data, vStart, 1, nested, trusted)
		} else if string(key) == "value" {
			vEnd, err = f.readValue(&m, vStart)
		} else {
			vEnd, err = m.value(vStart)
		}
		if err != nil {
			return 0, err
		}
		f.set(key, data[vStart:vEnd])
		if done, err := m.after(vEnd); err != nil {
			return 0, err
		} else if done {
			return m.i, nil
		}
	}
}

// readValue validates a state update's value, reading it as stats in the
// same pass when it has their shape (fastStats).
func (f *topFields) readValue(m *members, vStart int) (int, error) {
	if !f.generalStats {
		if st, end, ok := fastStats(m.data, vStart); ok {
			f.stats = st
			return end, nil
		}
	}
	f.stats = nil
	return m.value(vStart)
}

// readNestedObject validates the object at data[i] and stores the spans of
// its members in f.
func readNestedObject(data []byte, i, depth int, f *actionFields, trusted bool) (int, error) {
	m := openMembers(data, i, depth, trusted)
	for {
		key, vStart, ok, err := m.next()
		if err != nil {
			return 0, err
		}
		if !ok {
			return m.i, nil
		}
		vEnd, err := m.value(vStart)
		if err != nil {
			return 0, err
		}
		f.set(key, data[vStart:vEnd])
		if done, err := m.after(vEnd); err != nil {
			return 0, err
		} else if done {
			return m.i, nil
		}
	}
}

// objectFields validates the object at data[i] and calls fn with the key
// and value span of each member; for readers off the hot path (base
// state). It returns the index just past the object.
func objectFields(data []byte, i int, fn func(key, val []byte)) (int, error) {
	m := openMembers(data, i, 0, false)
	for {
		key, vStart, ok, err := m.next()
		if err != nil {
			return 0, err
		}
		if !ok {
			return m.i, nil
		}
		vEnd, err := m.value(vStart)
		if err != nil {
			return 0, err
		}
		fn(key, data[vStart:vEnd])
		if done, err := m.after(vEnd); err != nil {
			return 0, err
		} else if done {
			return m.i, nil
		}
	}
}
