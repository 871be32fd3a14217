package gen

import (
	"strconv"

	"ohwatch/internal/jsonx"
	"ohwatch/model"
)

// pyArgs builds a tool call's `arguments` string the way the LLM client
// hands it over: Python json.dumps output, with ", " and ": " separators
// and ASCII-only escapes, keys in the order the model wrote them.
type pyArgs struct{ buf []byte }

func newArgs() *pyArgs { return &pyArgs{buf: append(make([]byte, 0, 256), '{')} }

func (a *pyArgs) key(k string) {
	if len(a.buf) > 1 {
		a.buf = append(a.buf, ',', ' ')
	}
	a.buf = jsonx.AppendString(a.buf, k, jsonx.ASCII)
	a.buf = append(a.buf, ':', ' ')
}

func (a *pyArgs) str(k, v string) *pyArgs {
	a.key(k)
	a.buf = jsonx.AppendString(a.buf, v, jsonx.ASCII)
	return a
}

func (a *pyArgs) int(k string, v int) *pyArgs {
	a.key(k)
	a.buf = strconv.AppendInt(a.buf, int64(v), 10)
	return a
}

func (a *pyArgs) intPair(k string, x, y int) *pyArgs {
	a.key(k)
	a.buf = append(a.buf, '[')
	a.buf = strconv.AppendInt(a.buf, int64(x), 10)
	a.buf = append(a.buf, ',', ' ')
	a.buf = strconv.AppendInt(a.buf, int64(y), 10)
	a.buf = append(a.buf, ']')
	return a
}

// tasks writes a task list with the keys in the order models emit them
// (title, status, notes), which differs from the serialised TaskItem.
func (a *pyArgs) tasks(k string, list []model.Task) *pyArgs {
	a.key(k)
	a.buf = append(a.buf, '[')
	for i, t := range list {
		if i > 0 {
			a.buf = append(a.buf, ',', ' ')
		}
		a.buf = append(a.buf, `{"title": `...)
		a.buf = jsonx.AppendString(a.buf, t.Title, jsonx.ASCII)
		a.buf = append(a.buf, `, "status": `...)
		a.buf = jsonx.AppendString(a.buf, t.Status, jsonx.ASCII)
		a.buf = append(a.buf, `, "notes": `...)
		a.buf = jsonx.AppendString(a.buf, t.Notes, jsonx.ASCII)
		a.buf = append(a.buf, '}')
	}
	a.buf = append(a.buf, ']')
	return a
}

func (a *pyArgs) String() string { return string(append(a.buf, '}')) }

// ToolArgs is a tool call's arguments string for the given key and value
// pairs, written as the LLM client hands them over (see pyArgs). Scripts
// use it for calls whose arguments fail validation.
func ToolArgs(kv ...string) string {
	a := newArgs()
	for i := 0; i+1 < len(kv); i += 2 {
		a.str(kv[i], kv[i+1])
	}
	return a.String()
}

// appendTaskList appends a serialised TaskItem list (title, notes, status).
func appendTaskList(dst []byte, list []model.Task) []byte {
	dst = append(dst, '[')
	for i, t := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '{')
		dst = appendStringField(dst, "title", t.Title)
		dst = appendStringField(dst, "notes", t.Notes)
		dst = appendStringField(dst, "status", t.Status)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}
