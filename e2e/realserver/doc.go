// Package realserver is ohwatch's end-to-end suite against the real
// OpenHands agent-server (the upstream openhands.agent_server with a
// scripted LLM, from ../shared/agent-server beside the project). Its tests
// drive the ohwatch binary as a user does, and the TUI in-process
// (internal/termtest); they skip on a bare clone without the kit and are
// required in CI (OHWATCH_UPSTREAM_REQUIRED=1).
package realserver
