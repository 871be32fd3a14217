package model

import "ohwatch/internal/jsonx"

// readTopObject validates the event object at data[i] and stores the spans
// of the members Decode reads in f, reading an action or observation
// object's members into f as well. It returns the index just past the
// object. Trusted, it validates nothing (see Redecode).
func readTopObject(data []byte, i int, f *topFields, trusted bool) (int, error) {
	m := jsonx.OpenMembers(data, i, 0, trusted)
	for {
		key, vStart, ok, err := m.Next()
		if err != nil {
			return 0, err
		}
		if !ok {
			return m.End(), nil
		}
		var vEnd int
		if nested := f.nestedFields(key); nested != nil && vStart < len(data) && data[vStart] == '{' {
			vEnd, err = readNestedObject(data, vStart, 1, nested, trusted)
		} else if string(key) == "value" {
			vEnd, err = f.readValue(&m, vStart)
		} else {
			vEnd, err = m.Value(vStart)
		}
		if err != nil {
			return 0, err
		}
		f.set(key, data[vStart:vEnd])
		if done, err := m.After(vEnd); err != nil {
			return 0, err
		} else if done {
			return m.End(), nil
		}
	}
}

// readValue validates a state update's value, reading it as stats in the
// same pass when it has their shape (fastStats).
func (f *topFields) readValue(m *jsonx.Members, vStart int) (int, error) {
	if !f.generalStats {
		if st, end, ok := fastStats(m.Data(), vStart); ok {
			f.stats = st
			return end, nil
		}
	}
	f.stats = nil
	return m.Value(vStart)
}

// readNestedObject validates the object at data[i] and stores the spans of
// its members in f.
func readNestedObject(data []byte, i, depth int, f *actionFields, trusted bool) (int, error) {
	m := jsonx.OpenMembers(data, i, depth, trusted)
	for {
		key, vStart, ok, err := m.Next()
		if err != nil {
			return 0, err
		}
		if !ok {
			return m.End(), nil
		}
		vEnd, err := m.Value(vStart)
		if err != nil {
			return 0, err
		}
		f.set(key, data[vStart:vEnd])
		if done, err := m.After(vEnd); err != nil {
			return 0, err
		} else if done {
			return m.End(), nil
		}
	}
}
