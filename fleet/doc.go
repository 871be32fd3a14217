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
package fleet
