// Package reducer derives a conversation's state from its event log.
//
// Apply is pure and deterministic: no clock, no I/O, no randomness. The same
// events always give the same State, which is what lets every pane show the
// conversation exactly as it was at any event (time travel).
//
// # In detail
//
// `Apply(State, Event) State` (pure), `Log` (append-only, id-dedupe; the
// conversation tree from `parent_id`: each event's fold-parent, HEAD,
// `Path`, `Children`, `BranchPoints`, `Branches`, `Tip`;
// `PathNodes`/`NodeTip`: a path's events that are upstream tree nodes and
// the state updates folded along it, apart, and its last tree node, the
// SDK's `leaf_event_id`; checkpoints per run of the tree; `At` is the path
// fold, `Diff`, `Marks` and `Walk` follow the path (`Walk` lends each
// event's bytes from the block for its yield, its strings copied out, and
// rebuilds the events of a long path a batch ahead on another goroutine,
// which is gone before the walk returns: `walkahead.go`); an index of each
// kind group's events, so `NextInGroups`/`PrevInGroups` find the next event
// a kind filter shows by binary search, not a scan; the events themselves in
// `store.go`: each event's raw bytes kept once in large blocks — where a
// reader read them when it read into the log's `Space` (`space.go`:
// `Log.Space().Block` hands the files reader its blocks, and `Append` finds
// each event's bytes in one and keeps them there, no copy; an event read
// elsewhere is copied; an event kept whole is detached from the space
// first), else copied into the log's own — off the Go heap (anonymous mmap,
// `offheap*.go`) once the log passes 4 MiB, so the collector neither scans
// nor counts them and GOGC's headroom applies to the small rest — and one
// 56-byte record per event with no pointer (block and offset, kind, source,
// time in ns, id and parent as packed uuids); `Event(i)` decodes a heap copy
// of the raw bytes again with `model.Redecode` (the decoder without
// validation, for bytes `Decode` accepted when they came; a cache of 512
// decoded events: the newest appended and the rows read last), and `At`
// folds from the checkpoint (every 32 events) the events it decodes in place
// from the block, only their strings copied (`Event.Detached`, without Raw);
// events decoding would not give back (built by hand, the subscribe frame's
// mark, placeholders, a zoned timestamp, an id that is no uuid) are kept
// whole; ids found through an open-addressing table of event positions keyed
// by the records' uuids (`idindex.go`; each slot holds half its id's hash
// too, so a miss, every append's duplicate check, reads no record), not a
// map of strings; what `Append` folds is the event as the reader decoded it,
// its strings in the reader's buffers: every string a State keeps of an
// event is copied where it is kept (`own.go`: pending actions, tasks,
// statuses, errors, ACP calls, unknown kinds' names; response ids and
// forgotten ids were already), so checkpoints keep a few bytes per event,
// not the reader's buffers (`TestStatesKeepNothingOfTheCallersBuffers` walks
// every State, checkpoint and cached event for a pointer into them); the
// newest State is folded in place (`State.apply`); when a log is collected
// its blocks go to a pool the next big log reuses (512 MiB at most; past it
// their pages are given back with madvise), and stay mapped either way;
// nothing handed out to keep points into a block (an event is decoded from a
// heap copy of its bytes, one kept as appended has its Raw copied when
// handed out; a walk lends the bytes only while it runs and keeps the log
// alive until it ends), so reuse never changes what someone kept; `Settle`
// gives a big load's garbage back to the system once, which the TUI calls
// when a recording has been read), `Verdict` (the one rule for how a status
// is stated: a recording that has ended has a final last status, a live
// stream keeps provisional/confirmed).
//
// `TailVerdict`: that verdict decided from a recording's last events alone
// when they decide it, so `ls` need not read a long conversation whole.
//
// `ResultOf(i)` and `ActionOf(j)`: the one answer to which event answered
// an action (an observation, a rejection or an agent error), filed as each
// result is appended (`results.go`) by the SDK's rule
// (`ConversationState.get_unmatched_actions`): observations and rejections
// by `action_id` (by `tool_call_id` only when they carry none), agent
// errors by `tool_call_id`, which names the newest action with it that has
// no result yet; the first answer is the result. A lookup is one read,
// however far the result is; the index costs 4 bytes an event plus a map of
// the unanswered actions. The inspector, the compare screen and the
// Markdown export read it.
//
// It imports `model`, `format`, `internal/arena`.
package reducer
