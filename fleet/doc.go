// Package fleet folds the updates of many conversations at once into one
// entry per conversation: the derived state a table row, an attention mark
// and a headless line need, without the conversation's events.
//
// A fleet may watch a hundred conversations of ten thousand events each;
// keeping their events would hold gigabytes for a table that shows one line
// of each. An entry keeps a reducer.State folded incrementally with
// reducer.Apply (the same rule every other surface uses, so a row says
// what the conversation view says), the ids it has seen (to drop the
// duplicates a reconnect resends), its listing, its connection state and
// its last activity. Opening a conversation loads its events again from
// its source.
//
// The package is pure: no clock (the time is passed in), no I/O.
//
// # In detail
//
// Many conversations at once without their events (a conversation's
// `Children` by the parent links): folds `model.FleetUpdate`s into one entry
// per conversation (a `reducer.State` folded with `Apply`, the ids seen for
// dedupe — a `model.IDSet` —, listing, connection, last activity — a live
// event's arrival time when its recorded time is older).
//
// The state of each source itself (updates with no conversation id).
//
// Rows worded through `format` with the status by `reducer.Verdict` (a
// listing states what events do not, and confirms a provisional finished; an
// ended local recording whose server wrote base_state.json is stated by it,
// as a full fold of the recording is), attention (waiting for confirmation,
// error, stuck, a finished not yet seen; what was already finished when the
// history came in is not news), sort by any column, text and status filters,
// groups by source, forks under their parent (`Nest`, which `ls` uses too).
//
// The outcome of each run for `--until`.
//
// The notifications' rate limit (`Notifier`: one a second, one per
// conversation in 10 s, the rest coalesced).
//
// It imports `model`, `reducer`, `format`.
package fleet
