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
package guard
