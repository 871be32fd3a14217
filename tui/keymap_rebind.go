package tui

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
)

// Rebinding keys from a configuration file: a binding is named by its
// action, the KeyMap's field name in kebab case ("next-error",
// "export-jsonl"),
// so the names follow the KeyMap and cannot drift from it.

// Actions are the names of the conversation view's bindings, in the
// KeyMap's order.
func (k KeyMap) Actions() []string { return actionNames(k) }

// Actions are the names of the fleet table's bindings.
func (k FleetKeyMap) Actions() []string { return actionNames(k) }

// Rebind gives every action in keys its new keys, then checks that none
// of them took a key another action already answers (two actions that
// shared a key by default live in different places, so sharing stays
// allowed for them). The error names the action.
func (k *KeyMap) Rebind(keys map[string][]string) error {
	return rebind(k, DefaultKeyMap(), keys)
}

// Rebind is KeyMap.Rebind for the fleet table.
func (k *FleetKeyMap) Rebind(keys map[string][]string) error {
	return rebind(k, DefaultFleetKeyMap(), keys)
}

// KeyError is a rebinding that is refused; Action names it.
type KeyError struct {
	Action string
	Err    string
}

func (e *KeyError) Error() string { return e.Action + ": " + e.Err }

// rebind sets the bindings of keys in the struct km points to, whose
// defaults are def, and checks them for clashes.
func rebind(km any, def any, keys map[string][]string) error {
	v := reflect.ValueOf(km).Elem()
	d := reflect.ValueOf(def)
	names := actionNames(v.Interface())
	field := func(name string) int {
		for i := 0; i < v.NumField(); i++ {
			if kebab(v.Type().Field(i).Name) == name {
				return i
			}
		}
		return -1
	}
	actions := make([]string, 0, len(keys))
	for a := range keys {
		actions = append(actions, a)
	}
	slices.Sort(actions)
	for _, a := range actions {
		i := field(a)
		if i < 0 {
			return &KeyError{a, "no such action (the actions are " + strings.Join(names, ", ") + ")"}
		}
		ks := keys[a]
		if len(ks) == 0 {
			return &KeyError{a, "no keys given"}
		}
		for _, s := range ks {
			if s == "" || strings.ContainsAny(s, " \t") {
				return &KeyError{a, fmt.Sprintf("%q is not a key name (write keys as \"ctrl+x\", \"G\", \"enter\")", s)}
			}
		}
		old := v.Field(i).Interface().(key.Binding)
		v.Field(i).Set(reflect.ValueOf(key.NewBinding(key.WithKeys(ks...), key.WithHelp(strings.Join(ks, "/"), old.Help().Desc))))
	}
	for _, a := range actions {
		i := field(a)
		mine := v.Field(i).Interface().(key.Binding).Keys()
		myDefault := d.Field(i).Interface().(key.Binding).Keys()
		for j := 0; j < v.NumField(); j++ {
			other, ok := v.Field(j).Interface().(key.Binding)
			if !ok || j == i {
				continue
			}
			otherDefault := d.Field(j).Interface().(key.Binding).Keys()
			if sharesAny(myDefault, otherDefault) {
				continue
			}
			for _, s := range mine {
				if slices.Contains(other.Keys(), s) {
					return &KeyError{a, fmt.Sprintf("%q is already the key of %s", s, kebab(v.Type().Field(j).Name))}
				}
			}
		}
	}
	return nil
}

// actionNames are the kebab-case names of km's bindings.
func actionNames(km any) []string {
	t := reflect.TypeOf(km)
	var out []string
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Type == reflect.TypeOf(key.Binding{}) {
			out = append(out, kebab(t.Field(i).Name))
		}
	}
	return out
}

func sharesAny(a, b []string) bool {
	for _, s := range a {
		if slices.Contains(b, s) {
			return true
		}
	}
	return false
}

// kebab spells a Go field name in kebab case: NextError is next-error.
func kebab(name string) string {
	rs := []rune(name)
	var b strings.Builder
	for i, r := range rs {
		// A word starts at an upper-case letter after a lower-case one,
		// or at the last capital of an acronym followed by lower case
		// (ExportJSONL is export-jsonl).
		if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])) {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Binding is the keys of the action ("" for none).
func (k KeyMap) Binding(action string) []string { return keysOf(k, action) }

// Binding is the keys of the fleet table's action.
func (k FleetKeyMap) Binding(action string) []string { return keysOf(k, action) }

func keysOf(km any, action string) []string {
	v := reflect.ValueOf(km)
	for i := 0; i < v.NumField(); i++ {
		if b, ok := v.Field(i).Interface().(key.Binding); ok && kebab(v.Type().Field(i).Name) == action {
			return b.Keys()
		}
	}
	return nil
}

// glyphKeys are the key names the footer writes as glyphs.
var glyphKeys = map[string]string{"↑": "up", "↓": "down", "←": "left", "→": "right", "pgdn": "pgdown"}

// footerLabel is the footer's short label for b: label while one of the
// keys it names is still b's, else (b was rebound) b's own help key.
func footerLabel(b key.Binding, label string) string {
	for _, part := range strings.FieldsFunc(label, func(r rune) bool { return r == '/' || r == ' ' }) {
		if name, ok := glyphKeys[part]; ok {
			part = name
		}
		if slices.Contains(b.Keys(), part) {
			return label
		}
	}
	if strings.ContainsAny(label, "-…") {
		return label // a range ("1-5") or a pattern, not key names
	}
	return b.Help().Key
}

// Shortly rewords a binding for the one-line help, keeping its keys and
// whether it applies now.
func Shortly(b key.Binding, keys, desc string) key.Binding {
	out := key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(footerLabel(b, keys), desc))
	out.SetEnabled(b.Enabled())
	return out
}
