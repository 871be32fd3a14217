// Package session takes one conversation on its way to a screen or to
// headless lines: it opens the source (a recording, a directory being
// written, an agent-server, a Cloud sandbox, a conversation of a fleet),
// tees it into --record and --otlp, gives the TUI its links, branching and
// export, and returns the exit code by the README's table. It takes plain
// values (Options, FleetOptions, Env), never the command line's flags:
// the cli package parses those.
//
// # In detail
//
// One conversation on its way to a screen or to headless lines, from a plain
// `Options` (never flag values) and an `Env` (streams, getenv, NO_COLOR read
// once, isatty): opening a source (`replay.go`: a recording streamed in
// order, `--follow`; `watch.go`: an agent-server, with its confirmer;
// `cloud.go`: a Cloud sandbox, deleted on every way out; `fleet_open.go`:
// one conversation of a fleet source for the full monitor, and a paused
// Cloud one live after resuming its sandbox), `present.go` (headless or TUI,
// and the TUI's exit codes; a feed read from files passes `filekeys.go`
// first, which cuts the keys set in the environment out of each event, since
// no client did), `record.go` (`--record`: the tee, and a consistent end
// with a derived `base_state.json`), `otlp.go` (`--otlp`: a tee that builds
// each batch's spans, queues them for the sink's goroutine and then hands
// the batch on untouched, so none of it runs in the TUI's Update; and
// `export --format otlp`), `links.go` and `branching.go` (a view's forks and
// sub-conversations, fork and navigate on an agent-server), `fleet.go` (the
// `client/fleetsource` sources into the fleet table or the headless fleet
// lines), `export.go`/`export_tui.go` (the export formats; the TUI's export
// key: a path under `$XDG_STATE_HOME/ohwatch/exports`, never overwriting),
// `load.go`/`load_check.go` (a recording loaded whole, each batch appended
// to the log as it is read: one with no readable event refused with the
// first reason, exit 2; `state` and `export` count what was rejected in one
// warning line), `guard.go` (the `--guard` rules as a fresh `guard.Set` per
// conversation, what a trip does to a live conversation, the fleet's act),
// `controls.go` (the controls of a live agent-server conversation as the
// TUI's `Steering`, on a view and on the fleet table's rows;
// `controls_cloud.go`: a Cloud row's, sent to its sandbox's agent-server,
// none while its sandbox is paused), `compare.go` (`compare`: two runs read
// whole for the report, or opened as the compare screen's sides, recordings
// streamed and agent-server conversations watched live; a single fork's
// parent found on its source; `compare_cloud.go`: a `cloud:ID` run, looked
// up without waking its sandbox, watched on the sandbox's agent-server when
// it runs, read from Cloud's stored events when paused), `signals.go`
// (SIGINT/TERM/HUP cancel one context whose cause carries the exit code),
// `secrets.go` (stdout, stderr and `--log` redacted of every key).
//
// It imports everything above but `cli`.
package session
