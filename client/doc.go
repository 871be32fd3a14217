// Package client holds every source of events, in subpackages: files
// (conversation files, the recorder), agentserver (REST and WebSocket
// client), cloud (OpenHands Cloud sandboxes and the account's stored
// events) and fleetsource (many conversations at once, from a local root,
// an agent-server or a Cloud account). Sources hand their consumers
// model.Batch values; fleetsource hands []model.FleetUpdate. The
// agent-server-compatible server is not here: it is ohwatch/serve.
package client
