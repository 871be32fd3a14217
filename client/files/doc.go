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
package files
