// Package export turns a conversation into shareable forms: the derived
// state as JSON (`ohwatch state --json`, `export --format json`), a readable
// markdown transcript (`export --format md`) and the events as JSONL
// (`export --format jsonl`). The TUI's export key calls the same functions.
//
// # In detail
//
// State JSON, markdown transcript.
//
// It imports `model`, `reducer`.
package export
