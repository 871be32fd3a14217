// Package format is the one place where ohwatch turns numbers, costs,
// durations and statuses into words. Every surface — the TUI, the headless
// lines, `state`, `ls` and the exports — prints through it, so the same
// value reads the same everywhere (35.9k tokens in the TUI is 35.9k in the
// markdown transcript too) and a value that was never reported reads
// "unknown" rather than a zero that would be believed.
//
// It imports nothing of the project, so every other package, model
// included, may use it.
//
// # In detail
//
// The one place where counts/tokens (`35.9k`, `2.66B`), costs, durations
// (`4d07h12m`, `3y12d`, negative gaps as `-1h27m`), offsets and status
// verdicts become words, for every surface.
//
// A value never reported reads "unknown".
//
// It imports nothing of the project.
package format
