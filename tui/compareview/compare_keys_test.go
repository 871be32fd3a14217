package compareview

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// Every binding of the compare screen's key map is in its help.
func TestEveryCompareBindingIsInTheHelp(t *testing.T) {
	km := tui.DefaultCompareKeyMap()
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
	for _, col := range tui.DefaultCompareKeyMap().FullHelp() {
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
			// The screen above its footer stays as it was (the footer
			// may say the key belongs to another screen).
			before := c.View()
			cmd := c.Update(tuitest.KeyMsg(k))
			if after := c.View(); cmd != nil || aboveFooter(after) != aboveFooter(before) {
				t.Errorf("%s: unbound key %q did something:\n%s", place, k, after)
			}
		}
	}
}

// aboveFooter is a view without its last line.
func aboveFooter(view string) string { return view[:strings.LastIndex(view, "\n")] }

// TestKeysOfAnotherScreenSaySo: n and space, keys of a conversation's
// view, say so on compare rather than doing nothing.
func TestKeysOfAnotherScreenSaySo(t *testing.T) {
	c := compareFixture(t, 120, 30)
	for _, k := range []string{"n", "space"} {
		c.Update(tuitest.KeyMsg(k))
		if !strings.Contains(c.View(), "is a key of a conversation's view, not of compare") {
			t.Errorf("%s on compare says nothing:\n%s", k, c.View())
		}
	}
}
