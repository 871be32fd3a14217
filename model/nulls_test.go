package model

import (
	"encoding/json"
	"testing"
)

// TestDecodeNullAndAbsentFields turns every top-level and nested field of
// every recorded event into null, and then removes it: each variant must
// decode, keep its header, and never be taken for a malformed event, since
// upstream writes optional fields either way.
func TestDecodeNullAndAbsentFields(t *testing.T) {
	for name, raw := range recordedEvents(t) {
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err != nil {
			t.Fatal(err)
		}
		variants := func(yield func(string, map[string]any) bool) {
			for key := range obj {
				for _, drop := range []bool{false, true} {
					v := clone(obj)
					if drop {
						delete(v, key)
					} else {
						v[key] = nil
					}
					yield(key, v)
				}
				if nested, ok := obj[key].(map[string]any); ok {
					for nkey := range nested {
						v := clone(obj)
						n := clone(nested)
						n[nkey] = nil
						v[key] = n
						yield(key+"."+nkey, v)
					}
				}
			}
		}
		for field, v := range variants {
			b, _ := json.Marshal(v)
			ev, err := Decode(b)
			if err != nil {
				t.Fatalf("%s without %s: %v", name, field, err)
			}
			if reason, unknown := IsUnknown(ev); unknown && reason != "" {
				t.Errorf("%s without %s: malformed: %s", name, field, reason)
			}
			if field != "id" && ev.ID == "" {
				t.Errorf("%s without %s: id lost", name, field)
			}
			checkSafe(t, ev.Summary, false)
		}
	}
}

func clone(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}
