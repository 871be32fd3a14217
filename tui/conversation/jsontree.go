package conversation

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"ohwatch/internal/sanitize"
	"ohwatch/theme"
)

// maxJSONString caps how much of one string value the raw view shows; the
// pager (o) and the clipboard (y) have the whole event.
const maxJSONString = 4000

// jsonNode is one value of an event's raw JSON, keeping the object key
// order as sent, with a fold flag for objects and arrays.
type jsonNode struct {
	key      string // object key, "" for array items and the root
	hasKey   bool
	scalar   string // the JSON text of a scalar (strings quoted)
	isString bool
	open     byte // '{' or '[' for containers, 0 for scalars
	children []*jsonNode
	folded   bool
}

// parseJSON reads raw JSON into a tree; on malformed input it returns an
// error and the caller shows the bytes as text instead.
func parseJSON(raw []byte) (*jsonNode, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	n, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// parseValue reads one value from the token stream.
func parseValue(dec *json.Decoder) (*jsonNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &jsonNode{open: byte(t)}
		for dec.More() {
			var key string
			if n.open == '{' {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ = kt.(string)
			}
			child, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			child.key, child.hasKey = key, n.open == '{'
			n.children = append(n.children, child)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return n, nil
	case string:
		s := t
		if len(s) > maxJSONString {
			s = s[:maxJSONString] + "…(" + strconv.Itoa(len(t)) + " bytes)"
		}
		return &jsonNode{scalar: strconv.Quote(s), isString: true}, nil
	case json.Number:
		return &jsonNode{scalar: t.String()}, nil
	case bool:
		return &jsonNode{scalar: strconv.FormatBool(t)}, nil
	case nil:
		return &jsonNode{scalar: "null"}, nil
	}
	return &jsonNode{scalar: "?"}, nil
}

// jsonLine is one line of the pretty-printed tree; node is the container
// the line opens (for folding), nil for other lines.
type jsonLine struct {
	text string
	node *jsonNode
}

// lines pretty-prints the tree with two-space indents; folded containers
// take one line with their size.
func (n *jsonNode) lines(s theme.Styles) []jsonLine {
	var out []jsonLine
	n.appendLines(&out, 0, true, s)
	return out
}

func (n *jsonNode) appendLines(out *[]jsonLine, depth int, last bool, s theme.Styles) {
	indent := strings.Repeat("  ", depth)
	prefix := indent
	if n.hasKey {
		// Keys are untrusted text: quoted (which escapes controls) and
		// sanitised before they reach the terminal.
		prefix += s.JSONKey.Render(sanitize.Line(strconv.Quote(n.key))) + s.JSONPunct.Render(": ")
	}
	comma := ""
	if !last {
		comma = s.JSONPunct.Render(",")
	}
	if n.open == 0 {
		st := s.JSONNumber
		if n.isString {
			st = s.JSONString
		}
		*out = append(*out, jsonLine{text: prefix + st.Render(sanitize.Line(n.scalar)) + comma})
		return
	}
	closer := "}"
	if n.open == '[' {
		closer = "]"
	}
	g := s.Glyphs
	if len(n.children) == 0 {
		*out = append(*out, jsonLine{text: prefix + s.JSONPunct.Render(string(n.open)+closer) + comma})
		return
	}
	if n.folded {
		what := strconv.Itoa(len(n.children)) + " keys"
		if n.open == '[' {
			what = strconv.Itoa(len(n.children)) + " items"
		}
		*out = append(*out, jsonLine{node: n, text: prefix + s.JSONPunct.Render(string(n.open)+"…"+closer) + comma +
			" " + s.Muted.Render(g.Folded+" "+what)})
		return
	}
	*out = append(*out, jsonLine{node: n, text: prefix + s.JSONPunct.Render(string(n.open))})
	for k, c := range n.children {
		c.appendLines(out, depth+1, k == len(n.children)-1, s)
	}
	*out = append(*out, jsonLine{text: indent + s.JSONPunct.Render(closer) + comma})
}

// foldDeep folds every container deeper than depth, so a large event opens
// readable (the top-level fields visible, big nested values folded).
func (n *jsonNode) foldDeep(depth, maxChildren int) {
	for _, c := range n.children {
		if c.open != 0 && (depth >= 2 || len(c.children) > maxChildren) {
			c.folded = true
		}
		c.foldDeep(depth+1, maxChildren)
	}
}

// jsonMember is one member of a JSON object, in the order sent.
type jsonMember struct {
	key   string
	value json.RawMessage
}

// objectMembers reads the members of a raw JSON object in the order sent,
// their values left raw.
func objectMembers(raw []byte) ([]jsonMember, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var out []jsonMember
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return out, err
		}
		key, _ := kt.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return out, err
		}
		out = append(out, jsonMember{key, val})
	}
	return out, nil
}
