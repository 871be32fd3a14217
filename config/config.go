package config

import (
	"fmt"
	"path/filepath"

	"ohwatch/fleet"
	"ohwatch/guard"
	"ohwatch/theme"
)

// Kind is where a setting's value came from.
type Kind int

// The origins of a value, weakest first.
const (
	Default Kind = iota
	File
	Env
	Flag
)

// Origin says where one value came from: Name is the file's path, the
// variable or the flag.
type Origin struct {
	Kind Kind
	Name string
	Line int
}

// String is the origin as `ohwatch config` prints it: "default",
// "/home/me/.config/ohwatch/config.yaml:3", "env OHWATCH_THEME",
// "flag --theme".
func (o Origin) String() string {
	switch o.Kind {
	case File:
		return fmt.Sprintf("%s:%d", o.Name, o.Line)
	case Env:
		return "env " + o.Name
	case Flag:
		return "flag " + o.Name
	}
	return "default"
}

// Setting is one value with its origin.
type Setting[T any] struct {
	Value T
	From  Origin
}

// Set replaces the value when from is as strong as the current origin or
// stronger: a flag given after the file was read wins, a file never
// undoes a flag.
func (s *Setting[T]) Set(v T, from Origin) {
	if from.Kind >= s.From.Kind {
		s.Value, s.From = v, from
	}
}

// Group is how the fleet table groups the rows that need no attention.
const (
	GroupNone   = "none"
	GroupSource = "source"
)

// Config is the effective configuration.
type Config struct {
	// Path is the file read, or looked for when it does not exist.
	Path string
	// Found says the file existed.
	Found bool

	Theme         Setting[theme.Mode]
	Notifications Setting[bool]
	// Sources are the fleet's sources when none is given on its command
	// line; nil means the local root (and cloud with OH_API_KEY).
	Sources Setting[[]string]
	// Columns are the fleet table's columns, in its order (the title is
	// always first).
	Columns Setting[[]fleet.Column]
	Sort    Setting[fleet.Column]
	Reverse Setting[bool]
	Group   Setting[string]
	// Guards are the rules judged when no --guard is given.
	Guards Setting[[]guard.Rule]
	// Keys and FleetKeys are the bindings the file gives the conversation
	// view ("monitor") and the fleet table, by action name. They are plain
	// data: the TUI owns the actions and their defaults, reads these over
	// them and refuses an unknown action or a clash (session.KeyMaps,
	// which names the file's line through KeyError).
	Keys      map[string]Setting[[]string]
	FleetKeys map[string]Setting[[]string]
}

// Defaults is the configuration with no file.
func Defaults() *Config {
	c := &Config{
		Notifications: Setting[bool]{Value: true},
		Columns:       Setting[[]fleet.Column]{Value: fleet.Columns()[1:]},
		Sort:          Setting[fleet.Column]{Value: fleet.ColIdle},
		Group:         Setting[string]{Value: GroupNone},
		Keys:          map[string]Setting[[]string]{},
		FleetKeys:     map[string]Setting[[]string]{},
	}
	return c
}

// Path is where the configuration file is: $XDG_CONFIG_HOME/ohwatch/
// config.yaml, else ~/.config/ohwatch/config.yaml ("" with neither set).
func Path(getenv func(string) string) string {
	if dir := getenv("XDG_CONFIG_HOME"); dir != "" && filepath.IsAbs(dir) {
		return filepath.Join(dir, "ohwatch", "config.yaml")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "ohwatch", "config.yaml")
	}
	return ""
}

// Rebound is the file's bindings of a screen ("monitor" or "fleet"),
// action to keys, as the TUI's KeyMap.Rebind takes them; nil for a nil
// Config.
func (c *Config) Rebound(screen string) map[string][]string {
	if c == nil {
		return nil
	}
	set := c.screenKeys(screen)
	out := make(map[string][]string, len(set))
	for a, s := range set {
		out[a] = s.Value
	}
	return out
}

// KeyError is the TUI's refusal (msg) of the binding of action on screen,
// as Load reports any other mistake: at the file's line of that action.
func (c *Config) KeyError(screen, action, msg string) error {
	from := c.screenKeys(screen)[action].From
	return &Error{Path: from.Name, Line: from.Line, Key: "keys." + screen + "." + action, Msg: msg}
}

func (c *Config) screenKeys(screen string) map[string]Setting[[]string] {
	if screen == "fleet" {
		return c.FleetKeys
	}
	return c.Keys
}

// FleetColumns are the fleet table's columns after the title; nil: all.
func (c *Config) FleetColumns() []fleet.Column {
	if c == nil {
		return nil
	}
	return c.Columns.Value
}

// FleetOrder is the fleet table's first sort and grouping.
func (c *Config) FleetOrder() fleet.Query {
	if c == nil {
		return fleet.Query{Sort: fleet.ColIdle}
	}
	return fleet.Query{Sort: c.Sort.Value, Desc: c.Reverse.Value, BySource: c.Group.Value == GroupSource}
}

// GuardRules are the guards of a command: its --guard rules when it was
// given any (they replace the file's, not add to them), else the file's.
func (c *Config) GuardRules(flags []guard.Rule) []guard.Rule {
	if len(flags) > 0 || c == nil {
		return flags
	}
	return c.Guards.Value
}

// Notify says whether the TUI rings and notifies when someone is needed.
func (c *Config) Notify() bool { return c == nil || c.Notifications.Value }
