// Package guard holds rules that watch a conversation's derived state and
// trip when a metric passes a limit: a budget, a step count, a loop of the
// same tool call. A rule is METRIC>LIMIT[:ACTION] ("cost>5:pause").
//
// A Set is evaluated on the reducer's State after each event, in the order
// of the log, and keeps nothing but what the State lacks (the run of equal
// tool calls, the previous event's time). The same events therefore trip
// the same rules at the same events, live or replayed: `replay --guard` is
// an exact dry run of a live guard. The package does no I/O; acting on a
// trip (pausing the conversation) is the caller's.
//
// # In detail
//
// Rules that act when a conversation passes a limit
// (`METRIC>LIMIT[:ACTION]`: cost, tokens, steps, calls, idle, duration,
// errors, repeat, context; notify, pause, interrupt): a `Set` is evaluated
// on the reducer's State after each event (so a replay trips where a live
// watch would), trips once, re-arms at the next multiple of its limit after
// a resume, says once when it cannot judge.
//
// `TakeOver` lets a set that replaces another midway keep the rules both
// hold where they stood.
//
// `Fleet` judges each conversation of a fleet on its own events. Pure:
// acting on a trip is the caller's.
//
// It imports `model`, `reducer`, `format`.
package guard
