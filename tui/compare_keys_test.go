package tui

import (
	"reflect"
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"
)

// Every binding of the compare screen's key map is in its help.
func TestEveryCompareBindingIsInTheHelp(t *testing.T) {
	km := DefaultCompareKeyMap()
	var listed []key.Binding
	for _, col := range km.FullHelp() {
		listed = append(listed, col...)
	}
	v := reflect.ValueOf(km)
	for i := 0; i < v.NumField(); i++ {
		b := v.Field(i).Interface().(key.Binding)
		name := v.Type().Field(i).Name
		if len(b.Keys()) == 0 || b.Help().Desc == "" {
			t.Errorf("%s has no keys or no help", name)
		}
		if !slices.ContainsFunc(listed, func(l key.Binding) bool { return slices.Equal(l.Keys(), b.Keys()) }) {
			t.Errorf("%s is not in the help", name)
		}
	}
}

// A key the compare screen's key map does not bind does nothing there:
// every printable character and the named keys, in the list and with a
// row's steps open.
func TestEveryCompareKeyIsBound(t *testing.T) {
	bound := map[string]bool{}
	for _, col := range DefaultCompareKeyMap().FullHelp() {
		for _, b := range col {
			for _, k := range b.Keys() {
				bound[k] = true
			}
		}
	}
	var keys []string
	for r := rune(33); r < 127; r++ {
		keys = append(keys, string(r))
	}
	keys = append(keys, "space", "tab", "left", "right", "backspace", "delete", "insert", "f1", "ctrl+a", "ctrl+e", "ctrl+k")
	for _, place := range []string{"list", "detail"} {
		for _, k := range keys {
			if bound[k] {
				continue
			}
			c := compareFixture(t, 120, 40)
			if place == "detail" {
				pressCompare(c, "enter")
			}
			before, detail, top := c.cursor, c.detail != nil, c.top
			cmd := c.Update(keyMsg(k))
			if cmd != nil || c.cursor != before || (c.detail != nil) != detail || c.top != top || c.showHelp {
				t.Errorf("%s: unbound key %q did something", place, k)
			}
		}
	}
}
