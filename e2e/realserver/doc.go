// Package realserver is ohwatch's end-to-end suite against the real
// OpenHands agent-server (the upstream openhands.agent_server with a
// scripted LLM, from ../shared/agent-server beside the project). Its tests
// drive the ohwatch binary as a user does, and the TUI in-process
// (internal/termtest); they skip on a bare clone without the kit and are
// required in CI (OHWATCH_UPSTREAM_REQUIRED=1).
//
// # In detail
//
// Tests only: the end-to-end suite against the real agent-server
// (`../shared/agent-server`), driving the `ohwatch` binary it builds and the
// TUI in-process.
//
// The differential check of `serve`.
//
// It imports the binary; `client/agentserver`, `tui`, `reducer`, `model` for
// the TUI tests.
package realserver
