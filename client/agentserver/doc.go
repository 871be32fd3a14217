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
package agentserver
