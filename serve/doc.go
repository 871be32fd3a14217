// Package serve is an agent-server-compatible HTTP and WebSocket server that
// replays recorded conversations through the OpenHands agent-server protocol
// (REST history under /api/conversations and the event socket at
// /sockets/events/{id}). It backs `ohwatch serve` and `ohwatch demo`, and it
// is what tests start, like net/http/httptest, to exercise a client against
// real sockets on 127.0.0.1.
//
// # Playback
//
// Each conversation has a playback clock. Every clock starts when the server
// starts serving (Start, or the first call to Handler for callers that serve
// the handler themselves); a conversation added later starts at Add. With
// Options.StartPaused the clocks wait for POST /run. The clock emits the
// recorded events at the recorded pace: the gap between two timestamps is
// divided by Options.Speed and capped at MaxGap/Speed, so a recording that
// sat idle for an hour does not stall the replay; Speed 0 emits everything at
// once. Only emitted events exist: REST and the socket see the conversation
// grow as if it were live.
//
// # Fleet
//
// Options.Stagger starts the conversations one after another, in the order
// added; until its start a conversation does not exist for REST and new
// sockets. Options.Loop starts a conversation whose run has ended again as a
// new conversation: an id derived from the first run's and the run number,
// event ids derived from it (references follow), timestamps moved past the
// ended run. The ended conversation stays. One goroutine plays a recording
// and all its restarts.
//
// # Status
//
// Clients learn the execution status from per-field execution_status
// updates, as the agent-server sends one at every change. A recording
// that carries none (every CLI recording) gets them made up: after each
// recorded event the server sends the status the reducer newly derives
// from the content (running, waiting_for_confirmation, finished, error,
// stuck, paused), and once the whole recording is out, the status of its
// base_state.json. The snapshot and ConversationInfo report the status
// last sent.
//
// When a run stops (finished, error, stuck, paused, or
// waiting_for_confirmation) the server sends a full_state snapshot after
// Options.FinishConfirmDelay, so a client sees a provisional status
// confirmed, unless the recording goes on within that delay (the run did
// not settle). A snapshot goes only to subscribers: with none, none is
// built.
//
// # Confirmation
//
// At waiting_for_confirmation the replay holds for up to
// Options.ConfirmHold and resumes on POST respond_to_confirmation. Accept
// lets the recorded run go on. Reject emits one UserRejectObservation per
// pending action and execution_status=idle; the recorded results of those
// actions are passed over (they never ran) and the run goes on, along the
// recorded branch for that rejection when Server.OnReject gave one.
//
// The state the server reports (the full_state snapshot, ConversationInfo)
// is the recording's base_state.json, when there is one (parsed and encoded
// once), with the id, the execution status and the latest stats update.
// base_state.json describes the end of the recording, so its stats apply
// once the last event is out when the recording carries no stats updates.
//
// # Tree
//
// A conversation is a tree, as on an agent-server since SDK v1.31: HEAD
// (leaf_event_id in the snapshot and ConversationInfo) is the event the
// next one hangs from. POST /navigate moves HEAD; POST /fork makes a new
// conversation from the branch that ends at an event, which goes on, once
// run, with what the recording did after that event, under new ids. An
// event goes out as recorded unless its parent differs from the one a
// client infers (the tree event before it); then parent_id says so.
//
// # Faults
//
// Options.Inject (or SetFaults at run time) makes the server misbehave the
// way real agent-servers and networks do, so clients can be tested against
// duplicates, stale state, dropped connections, silent conversations and
// fatal or retryable close codes. See Faults, Server.SetFaults and
// Server.Silence.
//
// # In detail
//
// An agent-server-compatible server replaying recordings (demo, tests,
// client authors): the per-field status updates and snapshots a real server
// sends, even for recordings that carry none.
//
// Confirmation with reject branches.
//
// Injectable faults (`serve --fault`).
//
// The conversation tree (HEAD, `navigate` answering `ConversationInfo`,
// `fork` from any event or of the whole conversation, replaying the rest of
// the recording in the fork, an unknown event 404 as upstream; `parent_id`
// written only where a client could not infer it).
//
// `ConversationInfo` with exactly the route model's fields (`info.go`), its
// stats with the per-call lists as they stood at the latest stats update
// (`stats.go`).
//
// Held to upstream's route models field by field by a conformance test over
// every route.
//
// A fleet: staggered starts and runs that restart as new conversations with
// relabelled ids (`--stagger`, `--loop`).
//
// `created_at`/`updated_at` in play time (when it started, when its latest
// event went out), as a server running it now reports them.
//
// The controls (pause and interrupt between events, run, a message that at
// the end of a recording gets a generated reply, `confirmation_policy`,
// which from then on decides which actions wait: `policy.go`), a
// confirmation held until answered (`UntilAnswered`) or accepted after
// `ConfirmHold` and said so (`OnHoldPassed`). It is not under `client/`: it
// is a server, and imports the reducer.
//
// It imports `model`, `reducer`.
package serve
