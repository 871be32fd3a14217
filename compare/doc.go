// Package compare lines two runs up step by step and says where they part
// and what each cost.
//
// A step is what a person reads a run as: a user message, an action (a
// tool and its arguments) or an agent message. Each side's steps are taken
// from its log along one path (HEAD's unless told otherwise); arguments and
// texts are normalised first (whitespace, ids, absolute temporary paths) so
// that two calls which do the same thing compare equal. The two step
// sequences are aligned with Myers's O(ND) difference algorithm, so one
// step inserted on one side does not push every later pair apart. Events
// both sides hold by identity (a fork keeps the ids of the prefix it
// copied) are shared, not merely alike: the last of them is the report's
// shared_until_event_id.
//
// The package is pure: it reads logs it is given and does no I/O beyond
// writing a report to a writer.
//
// # In detail
//
// Two runs lined up step by step (user messages, actions with normalised
// arguments, agent messages; each event read once as a log grows, `Steps`):
// Myers's O(ND) alignment in linear space (common prefix/suffix and elements
// on one side only set aside first; a stretch past an edit distance of 256
// split at the furthest point reached), events shared by id from the start
// (a fork's copied prefix: `shared_until_event_id`), changed pairs of the
// same kind and tool.
//
// The report (status by `reducer.Verdict`, duration, cost, tokens, calls,
// steps, errors, tool calls, files edited, final message, deltas) as JSON,
// markdown or text.
//
// It imports `model`, `reducer`, `format`.
package compare
