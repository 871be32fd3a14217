// Package cloudserver is ohwatch's end-to-end suite against the real
// OpenHands app server ("Cloud": the upstream openhands/app_server with
// its process sandbox service, each sandbox the real agent-server with a
// scripted LLM, from ../shared/app-server beside the project). Its tests
// drive the ohwatch binary as a user does. They skip on a bare clone
// without the kit and are required in CI (OHWATCH_UPSTREAM_REQUIRED=1).
package cloudserver
