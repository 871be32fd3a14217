// Package client holds every source and sink of events, in subpackages:
// files (conversation files, the recorder), agentserver (REST and WebSocket
// client), serve (an agent-server-compatible server), cloud (OpenHands Cloud
// sandboxes). Sources hand their consumers model.Batch values.
package client
