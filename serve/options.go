package serve

import (
	"log/slog"
	"time"

	"ohwatch/model"
)

// MaxGap caps a single wait between two recorded events (before dividing by
// Speed), so an idle stretch of a recording does not stall the replay.
const MaxGap = 5 * time.Second

// DefaultAuthTimeout is how long a socket without a header or query key may
// take to send its first-frame auth before it is closed with 4001, as the
// agent-server does.
const DefaultAuthTimeout = 10 * time.Second

// MaxSubscribers is the number of sockets one conversation accepts; the next
// one is closed with 1013, as the agent-server does.
const MaxSubscribers = 50

// Options configures a Server. The zero value serves without authentication,
// emitting every recorded event at once.
type Options struct {
	// Key is the session API key every /api route and socket requires
	// (X-Session-API-Key, first-frame auth or session_api_key). Empty means
	// no authentication.
	Key string
	// Speed divides the recorded gaps between events: 1 is the recorded
	// pace, 10 ten times faster, 0 (or negative) everything at once.
	Speed float64
	// Logger receives the server's log; nil discards it. The key is never
	// logged.
	Logger *slog.Logger
	// Inject is the set of faults the server starts with (see SetFaults).
	Inject Faults
	// StartPaused keeps every playback clock stopped until POST /run.
	StartPaused bool
	// ConfirmHold is how long the replay waits at waiting_for_confirmation
	// for POST respond_to_confirmation before it accepts and carries on;
	// 0 does not wait, UntilAnswered waits as a real server does.
	ConfirmHold time.Duration
	// OnHoldPassed, when set, is told each time a ConfirmHold passed with
	// no answer and the server accepted the waiting actions itself.
	OnHoldPassed func(conversation string, hold time.Duration)
	// FinishConfirmDelay is the wait between the status that ends a run and
	// the full_state snapshot that confirms it. A run whose recording goes
	// on sooner than that is not confirmed (it stays provisional, as a
	// finished a Stop hook reverts does); above MaxGap/Speed only the
	// recording's last run is.
	FinishConfirmDelay time.Duration
	// Stagger starts the conversations one after another, in the order
	// they were added, this long apart, instead of all when the server
	// starts; before its start a conversation is not listed and REST
	// answers 404 for it, as for one a real server has not created yet.
	Stagger time.Duration
	// Loop starts a conversation again when its run ends, as a new
	// conversation with a new id, fresh event ids and timestamps moved
	// past the ended run, the recorded content otherwise; the ended one
	// stays listed. The restart waits MaxGap/Speed, or Stagger when that
	// is longer. Ignored at Speed 0, where a run ends the instant it starts.
	Loop bool
	// AuthTimeout bounds the wait for first-frame auth; 0 means
	// DefaultAuthTimeout.
	AuthTimeout time.Duration
	// Continue makes up what a fork does once run when its recording has
	// nothing after the fork point (a fork at the last event): the events
	// a run from there emits, stamped from at on. nil leaves such a fork
	// idle.
	Continue func(at time.Time) []model.Event
	// MessageSupersedes imitates a server with upstream PR #5110 (SDK issue
	// #5092): a user message sent while the conversation waits for
	// confirmation rejects the pending actions ("Superseded by a new user
	// message") instead of approving them, and /server_info reports
	// SupersedingVersion, which names no release, since none is known to
	// carry the change. The default imitates 1.43.1, where it approves.
	MessageSupersedes bool
}

// Faults are deliberate misbehaviours, each modelled on something a real
// agent-server or network does, for testing clients. The zero value injects
// nothing.
type Faults struct {
	// ReplayOverlap makes a resend (resend_mode=all or since) overlap the
	// live stream as it does on the agent-server, which subscribes before it
	// replays: the newest ReplayOverlap history events are sent first, as if
	// they had just arrived live, and then again in their place in the
	// replay. Clients must dedupe by id.
	ReplayOverlap int
	// StaleState re-sends, right after the snapshot, the conversation's old
	// per-field state updates (for example an early execution_status
	// running), as a resend does on the agent-server. When the recording has
	// none, a stale execution_status=running is made up.
	StaleState bool
	// DropAfterFrames drops every socket abruptly (no close frame) once it
	// has sent this many frames; 0 never.
	DropAfterFrames int
	// DropAtFrames drops the socket that sends the server's n-th frame (the
	// count runs over every socket of the server), for each n in the list.
	DropAtFrames []int
	// DropChance drops a socket after any frame with this probability,
	// drawn from a generator seeded with Seed (reproducible).
	DropChance float64
	Seed       uint64
	// SilentAfter makes every conversation go silent once it has emitted
	// this many events: it stops sending and REST answers 404, while open
	// sockets stay open. 0 never. See also Server.Silence.
	SilentAfter int
	// CloseAuth closes this many of the next sockets with 4001
	// "Authentication failed" (whatever their key).
	CloseAuth int
	// CloseBusy closes this many of the next sockets with 1013 "Too many
	// connections for this conversation" (a retryable code).
	CloseBusy int
	// CloseUnknown closes this many of the next sockets with 1008 and
	// CloseRuntime with 1011, without a reason, as a Docker-runtime
	// agent-server does for a conversation it does not know and for one
	// whose runtime cannot start (upstream docker_runtime/routers.py,
	// _proxy_socket).
	CloseUnknown int
	CloseRuntime int
	// NoSessionSocket makes the server one from before the session socket
	// (SDK 1.45, PR #4807): /sockets/session refused with 403.
	NoSessionSocket bool
	// Archives makes the server one with archived conversations (upstream
	// issue #4994; archived_at, archive/unarchive in docker_runtime/
	// routers.py): ConversationInfo carries archived_at, search and count
	// list active conversations unless archive_filter is ARCHIVED or ALL;
	// Archived are the ids archived. On a Docker runtime an archived
	// conversation's socket closes with 1011, as upstream's _container
	// refuses it (409).
	Archives bool
	Archived []string
	// Docker makes the server one whose conversations run in Docker
	// runtimes (upstream OH_CONVERSATION_RUNTIME=docker, PR #3403): fork,
	// switch_llm, switch_profile and credential-bindings answer 501, and
	// GET /{id}/runtime answers (available unless Runtime says otherwise).
	Docker bool
	// Runtime, when set, is the runtime_status GET /{id}/runtime reports
	// (available, starting, missing, ownership_lost, error; PR #4966, SDK
	// 1.48), with can_resume RuntimeCanResume.
	Runtime          string
	RuntimeCanResume bool
	// NoTree makes the server one older than SDK v1.31: POST /fork and
	// /navigate answer 404, as on a server without those routes.
	NoTree bool
	// NoInterrupt makes POST /interrupt answer 404, as on a server from
	// before that route: a client falls back to /pause.
	NoInterrupt bool
}
