// Package files reads and writes conversations on disk: the OpenHands SDK
// directory (base_state.json + events/event-NNNNN-<id>.json), the older seed
// layout (events/0001_user_message.json), JSONL (one event per line) and the
// trajectory zip served by /api/file/download-trajectory/{id}.
//
// Reading is parallel and streaming: Stream hands ordered batches to its
// consumer as soon as they are decoded, so the first screen of a 100k-event
// conversation shows while the rest loads. Load is Stream collected into one
// Conversation. Follow tails a directory that is still being written, and
// Recorder writes a live conversation in the SDK layout, one new file per
// event, so the SDK itself can load what ohwatch recorded.
//
// Bad input never stops a read: an unreadable file, an invalid line or an
// index gap becomes a warning that names the file (and line), and every
// event that could be read is still handed out.
//
// # In detail
//
// Conversation files: SDK dir, seed layout, JSONL, trajectory zip, roots of
// many (a conversation's parent from `meta.json`: forked from, delegated by;
// `Tail`: a conversation's last event files alone).
//
// The recorder (one conversation per directory under a flock, a gap-free
// prefix even when the disk fills).
//
// `Follow`.
//
// `Reader.ReadInto` reads event files into blocks a caller hands out (a
// log's space: `session.LoadLog`, `Replay`, whose `present` keeps the log
// alive until its last finisher has run), each reader goroutine carving its
// files from one block at a time, growing from 64 KiB to 1 MiB, and giving
// back what a read did not fill (a file that shrank, a zip entry that
// claimed more).
//
// A big event is read on the heap and copied by the log, so no size a file
// only claims becomes memory the log keeps.
//
// A JSONL file's segments are blocks of the space as well (each cut to what
// is left of the file as measured; a line read on past its segment, and what
// a file grew by, on the heap).
//
// An event file or zip entry over 64 MiB is not read whole (a placeholder
// from its head).
//
// It imports `model`.
package files
