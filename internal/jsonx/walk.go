package jsonx

// Reading nested values of an already validated span in one pass. eachField
// hands a callback each member's whole span, so it must skip the value
// first; a reader that then walks that value's members skips them again,
// and a value nested d deep is scanned d times. A stats object is nested
// four deep (usages, metrics, lists, entries) and base_state.json's is
// megabytes: walkMembers and walkElements hand the callback where the
// Value starts instead, and the callback, which reads it, says where it
// ended, so every byte is looked at once.

// WalkMembers calls fn with the raw key and the index of the value of
// every member of the validated object whose '{' is at data[i]. fn returns
// the index just past the value when it read it, or -1 to have it skipped.
// WalkMembers returns the index just past the object.
func WalkMembers(data []byte, i int, fn func(key []byte, at int) int) int {
	i = SkipWS(data, i+1)
	for i < len(data) && data[i] == '"' {
		kEnd := SkipString(data, i)
		key := data[i+1 : kEnd-1]
		at := SkipWS(data, SkipWS(data, kEnd)+1) // past ':'
		i = nextItem(data, at, fn(key, at))
	}
	return min(i+1, len(data)) // past '}'
}

// WalkElements is walkMembers for the elements of the validated array
// whose '[' is at data[i].
func WalkElements(data []byte, i int, fn func(at int) int) int {
	i = SkipWS(data, i+1)
	for i < len(data) && data[i] != ']' {
		i = nextItem(data, i, fn(i))
	}
	return min(i+1, len(data)) // past ']'
}

// nextItem is where the member or element after the value at data[at]
// starts (or the closing bracket): past the value, which ended at end, or
// skipped when end is -1, and past the comma after it.
func nextItem(data []byte, at, end int) int {
	if end < 0 {
		end = SkipValue(data, at)
	}
	i := SkipWS(data, end)
	if i < len(data) && data[i] == ',' {
		i = SkipWS(data, i+1)
	}
	return i
}

// ValueAt returns the span of the validated value at data[at], for a
// callback of walkMembers that reads it whole.
func ValueAt(data []byte, at int) []byte {
	return data[at:SkipValue(data, at)]
}
