// Package headless answers the scripting question "is this conversation
// really done?": it feeds a source's batches through the reducer log, prints
// one line per event — every event, once, in log order — followed by a
// status line when the event changed the status (text, or JSONL with
// --json), and decides the exit code by the terminal-state rules of ux.md.
// A recording exits by its verdict (reducer.Verdict). Lines are buffered
// and written per batch, never one write per line.
//
// error and stuck end the watch at once. A per-field finished is provisional,
// because a Stop hook can still revert it; it is confirmed by a full_state
// snapshot, by base_state.json, or — after a grace period with no snapshot —
// by asking the agent-server over REST.
//
// # In detail
//
// The lines and exit codes of "is it really done?": one line per event, a
// status line after each that changes the status, buffered per batch (a
// recording whose HEAD path is every event in the order read is printed from
// what was taken of each event as it was read, `loadlines.go`, its JSON
// events made a batch ahead on another goroutine, `jsonahead.go`; any other
// is walked; an event's JSON line written directly, byte for byte as
// `encoding/json` would, each raw event compacted once into reused buffers
// and, for the bytes the log stores, checked terminal-safe and HTML-escaped
// in one pass: `eventjson.go`, `jsonx.AppendString`, `sanitize.AppendRawMessage`).
//
// For a fleet (`FleetWatch`, `RunFleet`), one line per status change of any
// conversation and `--until all\|any` ending with the exit code of the worst
// outcome, decided only once every source has reported
// (`FleetOptions.Sources`) and, for traces, each conversation's history is
// in (`AwaitEvents`).
//
// Guards (`guard.go`, `fleetguard.go`): a guard line per trip, a pause or
// interrupt guard acted on through `Options.Act` (a dry run on a recording)
// and exit 8 once the server reports the pause.
//
// A fleet watchdog, with "stopped by a guard" among the outcomes.
//
// It imports `model`, `reducer`, `format`, `fleet`, `guard`.
package headless
