package config

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"

	"ohwatch/fleet"
)

// ScreenKeys are a screen's default bindings, in its order, for Write to
// list with the file's over them: config knows no screen's actions, the
// TUI hands them in (session.KeyDefaults).
type ScreenKeys struct {
	// Screen is "monitor" or "fleet", as under keys: in the file.
	Screen   string
	Bindings []Binding
}

// Binding is one action's keys.
type Binding struct {
	Action string
	Keys   []string
}

// Write prints the effective configuration as YAML a config file may
// hold, each value followed by where it came from; screens are the key
// bindings to list (the file's over their defaults).
func (c *Config) Write(w io.Writer, screens ...ScreenKeys) error {
	where := c.Path
	switch {
	case where == "":
		where = "none (neither XDG_CONFIG_HOME nor HOME is set)"
	case !c.Found:
		where += " (not there: every value is a default)"
	}
	if _, err := fmt.Fprintf(w, "# file: %s\n", where); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(indent int, key, value string, from Origin) {
		fmt.Fprintf(tw, "%s%s: %s\t# %s\n", strings.Repeat("  ", indent), key, value, from)
	}
	head := func(indent int, key string) { fmt.Fprintf(tw, "%s%s:\n", strings.Repeat("  ", indent), key) }
	line(0, "theme", c.Theme.Value.String(), c.Theme.From)
	line(0, "notifications", strconv.FormatBool(c.Notifications.Value), c.Notifications.From)
	rules := []string{}
	for _, r := range c.Guards.Value {
		rules = append(rules, r.Text)
	}
	line(0, "guards", flow(rules), c.Guards.From)
	head(0, "fleet")
	from := c.Sources.From.String()
	if c.Sources.Value == nil {
		from += ": the local root, and cloud when OH_API_KEY is set"
	}
	fmt.Fprintf(tw, "  sources: %s\t# %s\n", flow(c.Sources.Value), from)
	cols := []string{}
	for _, col := range c.Columns.Value {
		cols = append(cols, columnName(col))
	}
	line(1, "columns", flow(cols), c.Columns.From)
	line(1, "sort", columnName(c.Sort.Value), c.Sort.From)
	line(1, "reverse", strconv.FormatBool(c.Reverse.Value), c.Reverse.From)
	line(1, "group", c.Group.Value, c.Group.From)
	if len(screens) > 0 {
		head(0, "keys")
	}
	for _, screen := range screens {
		head(1, screen.Screen)
		set := c.screenKeys(screen.Screen)
		for _, b := range screen.Bindings {
			s, ok := set[b.Action]
			if !ok {
				s = Setting[[]string]{Value: b.Keys}
			}
			line(2, b.Action, flow(s.Value), s.From)
		}
	}
	return tw.Flush()
}

func columnName(c fleet.Column) string { return strings.ToLower(c.Name()) }

// plain is a value YAML reads as itself unquoted.
var plain = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9+_./=-]*$`)

// flow writes a list in YAML's flow style, quoting what needs it.
func flow(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = s
		if !plain.MatchString(s) {
			q[i] = strconv.Quote(s)
		}
	}
	return "[" + strings.Join(q, ", ") + "]"
}
