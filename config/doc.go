// Package config reads ohwatch's configuration file,
// $XDG_CONFIG_HOME/ohwatch/config.yaml (~/.config/ohwatch/config.yaml when
// XDG_CONFIG_HOME is not set): the theme, notifications, the fleet's
// default sources, columns, sort and grouping, guards, and remapped keys. Every
// setting remembers where its value came from (the default, a line of
// the file, an environment variable or a flag), so `ohwatch config` can
// say it. Flags override the environment, which overrides the file,
// which overrides the defaults.
//
// # In detail
//
// `config.yaml` (`$XDG_CONFIG_HOME/ohwatch`, else `~/.config/ohwatch`) read
// with `go.yaml.in/yaml/v3` as a node tree, so every value keeps its origin
// (default, `FILE:LINE`, env, flag) and every mistake names its key and
// line.
//
// Key bindings rebound through `tui.KeyMap.Rebind` (actions named by the
// KeyMap's fields, so names cannot drift; a key another action answers is
// refused unless the two shared one by default).
//
// The fleet's sources, columns and first order.
//
// `guards` (rules parsed by `guard.Parse`, used when no `--guard` is given:
// `GuardRules`).
//
// `Write` prints the effective configuration `ohwatch config` shows.
//
// It imports `fleet`, `guard`, `theme`: key bindings are plain data that the
// TUI checks through `session.KeyMaps` (errors `PATH:LINE:
// keys.monitor.ACTION: …`); never `tui` (`internal/archcheck`).
package config
