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
package headless
