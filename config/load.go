package config

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"ohwatch/fleet"
	"ohwatch/guard"
	"ohwatch/theme"
)

// maxFileSize bounds the file read: a configuration is a few hundred
// bytes, and a mistaken path must not be read whole.
const maxFileSize = 1 << 20

// Error is a mistake in the file: its line and the key it is at.
type Error struct {
	Path string
	Line int
	Key  string
	Msg  string
}

// Error is one line: "PATH:LINE: KEY: what is wrong".
func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s: %s", e.Path, e.Line, e.Key, e.Msg)
}

// Load reads the file at path over the defaults. A file that does not
// exist is no mistake (the defaults stand); one that cannot be read or
// holds a mistake is an error naming the key and its line.
func Load(path string) (*Config, error) {
	c := Defaults()
	c.Path = path
	if path == "" {
		return c, nil
	}
	raw, err := readBounded(path)
	if errors.Is(err, iofs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.Found = true
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		return nil, syntaxError(path, err)
	}
	if len(doc.Content) == 0 {
		return c, nil // an empty file
	}
	p := parser{path: path, c: c}
	if err := p.top(doc.Content[0]); err != nil {
		return nil, err
	}
	return c, nil
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, maxFileSize+1)
	n, err := f.Read(buf)
	for err == nil && n < len(buf) {
		var m int
		m, err = f.Read(buf[n:])
		n += m
	}
	if n > maxFileSize {
		return nil, fmt.Errorf("larger than %d bytes", maxFileSize)
	}
	return buf[:n], nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError is the YAML parser's error as PATH:LINE: message.
func syntaxError(path string, err error) error {
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &Error{Path: path, Line: n, Msg: m[2]}
	}
	return &Error{Path: path, Line: 1, Msg: strings.TrimPrefix(msg, "yaml: ")}
}

// parser walks the document, keeping the path of keys for errors.
type parser struct {
	path string
	c    *Config
}

func (p *parser) fail(n *yaml.Node, key, format string, args ...any) error {
	return &Error{Path: p.path, Line: n.Line, Key: key, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) at(n *yaml.Node) Origin { return Origin{Kind: File, Name: p.path, Line: n.Line} }

// mapping calls each for every key of the mapping n (named key), refusing
// keys not in known.
func (p *parser) mapping(n *yaml.Node, key string, known []string, each func(k string, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		if key == "" {
			return p.fail(n, key, "the file must be a mapping of settings (theme: dark)")
		}
		return p.fail(n, key, "want a mapping")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		full := k.Value
		if key != "" {
			full = key + "." + k.Value
		}
		if known != nil && !contains(known, k.Value) {
			return p.fail(k, full, "unknown setting (the settings here are %s)", strings.Join(known, ", "))
		}
		if err := each(full, v); err != nil {
			return err
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (p *parser) top(n *yaml.Node) error {
	return p.mapping(n, "", []string{"theme", "notifications", "guards", "fleet", "keys"}, func(k string, v *yaml.Node) error {
		switch k {
		case "theme":
			s, err := p.scalar(v, k)
			if err != nil {
				return err
			}
			m, err := theme.ParseMode(s)
			if err != nil {
				return p.fail(v, k, "%v", err)
			}
			p.c.Theme.Set(m, p.at(v))
		case "notifications":
			b, err := p.boolean(v, k)
			if err != nil {
				return err
			}
			p.c.Notifications.Set(b, p.at(v))
		case "guards":
			return p.guards(v, k)
		case "fleet":
			return p.fleet(v, k)
		case "keys":
			return p.keys(v, k)
		}
		return nil
	})
}

func (p *parser) fleet(n *yaml.Node, key string) error {
	return p.mapping(n, key, []string{"sources", "columns", "sort", "reverse", "group"}, func(k string, v *yaml.Node) error {
		switch k {
		case key + ".sources":
			list, err := p.list(v, k)
			if err != nil {
				return err
			}
			for i, src := range list {
				list[i] = expandHome(src)
			}
			p.c.Sources.Set(list, p.at(v))
		case key + ".columns":
			names, err := p.list(v, k)
			if err != nil {
				return err
			}
			cols := make([]fleet.Column, 0, len(names))
			for _, name := range names {
				c, ok := column(name)
				if !ok {
					return p.fail(v, k, "unknown column %q (the columns are %s)", name, columnNames())
				}
				if c != fleet.ColTitle {
					cols = append(cols, c)
				}
			}
			p.c.Columns.Set(cols, p.at(v))
		case key + ".sort":
			s, err := p.scalar(v, k)
			if err != nil {
				return err
			}
			c, ok := column(s)
			if !ok {
				return p.fail(v, k, "unknown column %q (the columns are %s)", s, columnNames())
			}
			p.c.Sort.Set(c, p.at(v))
		case key + ".reverse":
			b, err := p.boolean(v, k)
			if err != nil {
				return err
			}
			p.c.Reverse.Set(b, p.at(v))
		case key + ".group":
			s, err := p.scalar(v, k)
			if err != nil {
				return err
			}
			if s != GroupNone && s != GroupSource {
				return p.fail(v, k, "want %s or %s, not %q", GroupSource, GroupNone, s)
			}
			p.c.Group.Set(s, p.at(v))
		}
		return nil
	})
}

// guards reads guards: a RULE or [RULE, …], each as --guard takes it; a
// rule that does not parse is refused at its own line.
func (p *parser) guards(n *yaml.Node, key string) error {
	items := []*yaml.Node{n}
	if n.Kind == yaml.SequenceNode {
		items = n.Content
	}
	rules := make([]guard.Rule, 0, len(items))
	for _, e := range items {
		if e.Kind != yaml.ScalarNode {
			return p.fail(e, key, "want a rule or a list of rules (%s)", guard.Usage)
		}
		r, err := guard.Parse(e.Value)
		if err != nil {
			return p.fail(e, key, "%v", err)
		}
		rules = append(rules, r)
	}
	p.c.Guards.Set(rules, p.at(n))
	return nil
}

// keys reads keys.monitor and keys.fleet: action: KEY or [KEY, …]. The
// actions and clashes are the TUI's to check (session.KeyMaps).
func (p *parser) keys(n *yaml.Node, key string) error {
	return p.mapping(n, key, []string{"monitor", "fleet"}, func(k string, v *yaml.Node) error {
		screen := strings.TrimPrefix(k, key+".")
		rebound := map[string][]string{}
		nodes := map[string]*yaml.Node{}
		err := p.mapping(v, k, nil, func(ak string, av *yaml.Node) error {
			action := strings.TrimPrefix(ak, k+".")
			list, err := p.list(av, ak)
			if err != nil {
				return err
			}
			rebound[action], nodes[action] = list, av
			return nil
		})
		if err != nil {
			return err
		}
		target := p.c.Keys
		if screen == "fleet" {
			target = p.c.FleetKeys
		}
		for a, list := range rebound {
			target[a] = Setting[[]string]{Value: list, From: p.at(nodes[a])}
		}
		return nil
	})
}

func (p *parser) scalar(n *yaml.Node, key string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", p.fail(n, key, "want a single value")
	}
	return n.Value, nil
}

func (p *parser) boolean(n *yaml.Node, key string) (bool, error) {
	var b bool
	if n.Kind != yaml.ScalarNode || n.Decode(&b) != nil {
		return false, p.fail(n, key, "want true or false, not %q", n.Value)
	}
	return b, nil
}

// list reads a value or a list of values.
func (p *parser) list(n *yaml.Node, key string) ([]string, error) {
	if n.Kind == yaml.ScalarNode {
		return []string{n.Value}, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, p.fail(n, key, "want a value or a list of values")
	}
	out := make([]string, 0, len(n.Content))
	for _, e := range n.Content {
		if e.Kind != yaml.ScalarNode {
			return nil, p.fail(e, key, "want a list of plain values")
		}
		out = append(out, e.Value)
	}
	return out, nil
}

// expandHome reads a leading ~/ of a path as the home directory, as a
// shell would have on the command line.
func expandHome(path string) string {
	rest, ok := strings.CutPrefix(path, "~/")
	if !ok {
		return path
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return path
	}
	return filepath.Join(home, rest)
}

// columnWords are the whole words for the columns whose heading is
// short.
var columnWords = map[string]fleet.Column{"pending": fleet.ColPending, "errors": fleet.ColErrors,
	"activity": fleet.ColActivity, "connection": fleet.ColConn}

// column finds a fleet column by its heading, in any case, or its word.
func column(name string) (fleet.Column, bool) {
	if c, ok := columnWords[strings.ToLower(name)]; ok {
		return c, true
	}
	for _, c := range fleet.Columns() {
		if strings.EqualFold(c.Name(), name) {
			return c, true
		}
	}
	return 0, false
}

func columnNames() string {
	var names []string
	for _, c := range fleet.Columns() {
		names = append(names, strings.ToLower(c.Name()))
	}
	return strings.Join(names, ", ")
}
