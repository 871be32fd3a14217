package conversation

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"ohwatch/internal/sanitize"
)

// The inspector's view of a payload without a layout of its own: a typed
// payload (a hook run, a condensation, a glob action, …) field by field
// from its Go type, labelled with the names the wire uses (the json tags);
// a payload without a type here (an unknown kind, a client tool's action)
// member by member from its raw JSON, in the order sent. Scalars are
// "name: value" lines, multi-line text and nested values are titled
// blocks, nested values as indented JSON.

// fields renders the exported fields of a typed payload (a pointer to a
// struct) in declaration order. The discriminating `kind` is left out: the
// header or the "action:" line already names it. Absent values (nil
// pointers, slices, maps and raw JSON, and zero values the wire omits when
// empty) are left out.
func (v *eventView) fields(payload any) {
	rv := reflect.ValueOf(payload)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return
	}
	rt := rv.Type()
	for i := range rt.NumField() {
		f := rt.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" || name == "kind" {
			continue
		}
		if f.Anonymous && name == "" {
			v.fields(rv.Field(i).Addr().Interface())
			continue
		}
		if name == "" {
			name = f.Name
		}
		v.fieldValue(name, rv.Field(i), strings.Contains(opts, "omitempty"))
	}
}

// fieldValue renders one field of a typed payload.
func (v *eventView) fieldValue(name string, fv reflect.Value, omitEmpty bool) {
	switch fv.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		if fv.IsNil() {
			return
		}
	}
	if omitEmpty && fv.IsZero() {
		return
	}
	if raw, ok := fv.Interface().(json.RawMessage); ok {
		v.rawValue(name, raw)
		return
	}
	if fv.Kind() == reflect.Pointer {
		fv = fv.Elem()
	}
	switch fv.Kind() {
	case reflect.String:
		v.textValue(name, fv.String())
	case reflect.Bool:
		v.field(name, strconv.FormatBool(fv.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.field(name, strconv.FormatInt(fv.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.field(name, strconv.FormatUint(fv.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		v.field(name, strconv.FormatFloat(fv.Float(), 'g', -1, 64))
	default:
		if b, err := marshalIndent(fv.Interface()); err == nil {
			v.section(name, string(b))
		}
	}
}

// members renders the members of a raw JSON object in the order sent,
// leaving out the keys in skip.
func (v *eventView) members(raw []byte, skip ...string) {
	ms, err := objectMembers(raw)
	if err != nil {
		v.out = append(v.out, v.styles.Error.Render(sanitize.Line(err.Error())))
		return
	}
	for _, m := range ms {
		if !slices.Contains(skip, m.key) {
			v.rawValue(m.key, m.value)
		}
	}
}

// rawValue renders one raw JSON value: a string as text, a number or a
// boolean as it was sent, an object or array as indented JSON; null is
// absent.
func (v *eventView) rawValue(name string, raw json.RawMessage) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			v.textValue(name, s)
		}
	case '{', '[':
		var b bytes.Buffer
		if json.Indent(&b, raw, "", "  ") == nil {
			v.section(name, b.String())
		}
	default:
		v.field(name, string(raw))
	}
}

// textValue renders text as a field, or as a titled block when it has
// several lines.
func (v *eventView) textValue(name, s string) {
	if strings.Contains(s, "\n") {
		v.section(name, s)
	} else {
		v.field(name, s)
	}
}

// marshalIndent writes a value as indented JSON, without escaping <, >
// and & (the text is for reading, not for a web page).
func marshalIndent(x any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
