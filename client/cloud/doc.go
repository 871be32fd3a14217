// Package cloud reaches conversations that run in OpenHands Cloud.
//
// Cloud does not stream events itself: it hands out sandboxes, and each
// sandbox runs an agent-server. This package does the Cloud part of the
// upstream watch_terminal_state flow over the app server's /api/v1 REST
// surface — start a sandbox, wait until it is RUNNING, start a conversation
// in it with an initial message, wait for the start task to be READY — or
// attaches to an existing Cloud conversation, resuming its sandbox when it
// is paused. Either way the result is a Target: the agent-server URL, the
// conversation id and the agent-server session key, which the caller watches
// with the agent-server client.
//
// A Session owns the sandbox it created and deletes it on Close unless
// Config.Keep is set. Close ignores the cancellation of its context, so the
// usual pattern cleans up even after Ctrl-C:
//
//	sess, err := cloud.New(cfg)
//	if err != nil {
//		return err
//	}
//	defer sess.Close(ctx)
//	target, err := sess.Open(ctx) // Start, or Attach when cfg.ConversationID is set
//
// The Cloud API key travels only in request headers. It never appears in a
// URL, a log line, an error or a String form of any value of this package,
// and it is never sent over plain HTTP to a host other than the loopback.
//
// # In detail
//
// OpenHands Cloud: sandbox lifecycle, start tasks, attach.
//
// The account's listing and stored events.
//
// `Resume` of a paused conversation's sandbox (only when a person answers
// `y`).
//
// Always cleans up what it started.
//
// It imports `model`.
package cloud
