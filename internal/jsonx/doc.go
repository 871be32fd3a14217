// Package jsonx is ohwatch's hand-written JSON: the one string escaper
// every writer uses (headless lines, generated recordings, the terminal-safe
// forms of raw events), and the pieces of JSON reading and writing that
// beat encoding/json by a margin a user feels. Each piece kept by hand names,
// in its doc comment, the benchmark and the figure that keep it; the rest of
// the project reads and writes JSON with encoding/json.
//
// Of the project it imports only internal/arena (the strings Decode reads
// alias the event's bytes: Alias).
package jsonx
