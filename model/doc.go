// Package model is ohwatch's vocabulary: the events an OpenHands agent-server
// sends, decoded by their `kind`, with their exact raw bytes kept.
//
// Event is lean: it holds the header, the raw JSON, a sanitised one-line
// summary and a small typed Body with only the facts the reducer and the
// event list need. A big log keeps only the raw JSON and a compact record
// per event and decodes an Event again when it is asked for one. The full
// typed payload (message text, command output, file contents, tool lists) is
// decoded on demand from Raw by Event.Detail, for the one event being read.
//
// # In detail
//
// The vocabulary: the one table of event kinds (`model.Kinds`, `kinds.go`:
// per kind its name as sent, lean decoder, payload type, the group the list
// shows, glyph, noise, live-only, non-tree artifact, Python module) that the
// decoder, the reducer's kind counts and fold tree, the TUI's kind column
// and filter, serve, the recorder and export all read.
//
// The full typed payload (`Event.Detail`) is what the inspector and export
// render.
//
// Events decoded by `kind` into a lean resident form (header, raw bytes,
// one-line summary, small typed body) over the validating scanner of
// `internal/jsonx`, the full payload decoded on demand (making text and raw
// JSON safe for a terminal is `internal/sanitize`'s, cutting secrets out
// `internal/redact`'s), `UnreadableEvent` (the placeholder of
// an event too large to read, from a socket or a file), ids
// (`CheckConversationID`: one path segment or refused) (and `IDSet`, the ids
// seen for dedupe: a uuid as two integers, never a string that keeps an
// event alive; `PackUUID`/`FormatUUID`), times, `Event.Detached` (a copy of
// a decoded event whose strings no longer share its raw bytes' memory, so
// what a State keeps of it does not keep a reader's segment alive; a body is
// copied only when one of its own strings does), stats (a `stats` update's
// value, a third of all events, read in the pass that validates it,
// `statsfast.go`, declining to the general reader on anything it is not sure
// to read the same, held to it by a test and a fuzz target; the general
// reader walks nested values once, `jsonx.WalkMembers`: a reader says where the
// value it read ended; usage and model names through a small lock-free
// cache, `namecache.go`, so a stats body shares nothing with its event's
// bytes), base state (`ReadBaseState` streams it in bounded memory, whatever
// its size; `CallPrefix`: how many of base_state.json's
// per-call LLM records a stats update's accumulated usage adds up to), the
// conversation an event launched (`SpawnedConversation`),
// `Batch`/`ConnState`.
//
// It imports `format`, `internal/arena`, `internal/jsonx`,
// `internal/sanitize`.
package model
