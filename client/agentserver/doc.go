// Package agentserver talks to a running OpenHands agent-server: its REST
// API (conversation metadata, event history, confirmation and run control)
// and its event WebSocket (/sockets/events/{id}).
//
// Watch is the live source the rest of ohwatch consumes. It loads history
// over REST, then follows the socket, and survives dropped connections
// without losing or repeating an event: every event is deduplicated by id,
// the resume anchor advances as events arrive, and after each reconnect the
// history is reconciled over REST. Connection changes are reported in the
// same stream of model.Batch values as the events.
//
// The session key travels only in the X-Session-API-Key header and in the
// WebSocket's first (auth) frame: never in a URL, a log line or an error.
//
// # In detail
//
// Agent-server REST and WebSocket: history paging, resume with an advancing
// anchor, reconnect with backoff, reconcile, batching.
//
// A first connection's first frame (any frame proves the socket subscribed)
// fetches over REST the events the history missed before anything of the
// socket is delivered, since the server subscribes the socket before it
// builds its snapshot and replays, so live frames can overtake both (those
// stamped at or after a subscribe frame that is not terminal come after that
// frame, so its older state, idle before the run, never stands over them).
//
// A terminal snapshot on a reconnect is held until the reconcile, started at
// once, has merged, while the socket's frames keep flowing, so a watch never
// ends on it short of the last events.
//
// On a reconnect the first new event of the log runs the reconcile (up to it
// and the slack past it) before it is delivered, since a live frame can
// overtake the replay of what the dropped connection missed.
//
// A socket that opened counts as the server reached, so a drop before its
// first frame (a server restarting) is retried under `MaxAttempts`, not
// `FirstAttempts`.
//
// The frame a socket sends as it subscribes (a full_state snapshot wherever
// it comes, or `execution_status=idle` as the first frame before the run)
// marked live-only (`StateUpdate.Subscribe`), so a recording holds the
// server's log and nothing else.
//
// Events held behind a missing parent cost the same per event however many
// wait.
//
// An event whose parent has not arrived held back until it does
// (out-of-order frames would read as a branch), or delivered with a warning
// after `OrphanWait`.
//
// Answers a confirmation only while the server still waits on exactly the
// actions asked about.
//
// `Fork` from an event, `Navigate` (HEAD), `SendMessage`, a 404 on an
// existing conversation read as a server older than 1.31.
//
// The controls (`controls.go`: `Pause`, `Run`, `Interrupt`, `PostMessage`
// with or without run, `SetConfirmationPolicy`), a refusal worded on one
// line (`ControlError`; a 404 for a conversation the server has is
// `ErrControlUnsupported`).
//
// A conversation's lineage (forked from, delegated by, sub-conversations,
// HEAD).
//
// One socket connection is a `connection` value (`session.go`) whose methods
// each handle one kind of report (a frame, a pong, the reconcile's result, a
// check), all on the watch goroutine.
//
// A socket may gather its reads (`WatchOptions.GatherReads`, `gather.go`:
// once the TLS and HTTP handshakes are over, at most one read of the
// kernel's buffer per interval, the first frame after a quiet spell and the
// read after a full buffer at once), which a fleet of busy streams asks for
// so it pays a read and a wake-up per interval, not per event.
//
// A listing may be given a `ListingMemo`, so items that come back byte for
// byte are not decoded again (a fleet lists every 5 s).
//
// It imports `model`.
package agentserver
