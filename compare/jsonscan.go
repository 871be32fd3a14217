package compare

import "ohwatch/internal/jsonx"

// member returns the raw value of the member name of the JSON object raw,
// nil when raw is not an object or has no such member. raw is an event the
// log keeps or a value inside one, validated when it was decoded, so a
// step's arguments are found and hashed straight from those bytes with
// jsonx's scanner, without validating them again (decoding every action
// with encoding/json would cost more than loading the recording).
func member(raw []byte, name string) []byte {
	var found []byte
	jsonx.EachField(raw, func(key, val []byte) bool {
		if string(key) == name && len(val) > 0 {
			found = val
			return false
		}
		return true
	})
	return found
}

// stringValue returns the raw (still escaped) contents of the JSON string
// v, and false when v is not a string.
func stringValue(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	return string(v[1 : len(v)-1]), true
}
