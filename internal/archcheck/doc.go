// Package archcheck holds no code: its test reads the module's source and
// fails CI when a rule of the house is broken (ARCHITECTURE.md): unsafe
// outside the memory layer, a layer that points back up, the TUI reading
// the process environment itself.
//
// # In detail
//
// Tests only: house rules checked from the source: `unsafe` only in
// `internal/arena`, `config` never imports `tui`, no
// `os.Getenv`/`os.LookupEnv` under `tui/`.
//
// It imports —.
package archcheck
