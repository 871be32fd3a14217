package agentserver

import "context"

// MessageEffect is what a user message sent while a conversation waits for
// confirmation does to the actions it waits on. Upstream changed it: SDK
// issue #5092 (a message approved the pending actions on the next run) is
// fixed by PR #5110 (OpenHands/software-agent-sdk, opened 2026-09-17: in
// LocalConversation.send_message, a conversation waiting for confirmation
// rejects its pending actions with "Superseded by a new user message"
// before taking the message).
type MessageEffect int

const (
	// MessageEffectUnknown: the server's version does not say; a client
	// takes the safe path (reject first, then send).
	MessageEffectUnknown MessageEffect = iota
	// MessageEffectApproves: the message approves the pending actions
	// (run() clears WAITING_FOR_CONFIRMATION as "user approved").
	MessageEffectApproves
	// MessageEffectRejects: the message rejects them ("superseded").
	MessageEffectRejects
)

// messageApprovesThrough is the newest release known to approve: v1.43.1,
// read in its source (local_conversation.py: send_message resets only
// FINISHED and STUCK; run() clears WAITING_FOR_CONFIRMATION "(user
// approved)"; event_service.py: send_message with run calls run) and
// checked against the real server in ../shared/agent-server.
var messageApprovesThrough = [3]int{1, 43, 1}

// messageRejectsFrom is the first release that carries PR #5110. None is
// known: in the newest upstream record read (the pull request still open,
// local_conversation.py of a later main still approving), no release has
// it, so every version after messageApprovesThrough is unknown and gets
// the safe path. The zero value means none.
var messageRejectsFrom [3]int

// MessageEffectOf says what a message does to pending actions on a server
// of the given /server_info version ("1.43.1", "v1.14.0rc1").
func MessageEffectOf(version string) MessageEffect {
	v, ok := parseVersion(version)
	switch {
	case !ok:
		return MessageEffectUnknown
	case messageRejectsFrom != [3]int{} && !versionLess(v, messageRejectsFrom):
		return MessageEffectRejects
	case !versionLess(messageApprovesThrough, v):
		return MessageEffectApproves
	}
	return MessageEffectUnknown
}

// MessageEffect asks the server its version and says what a message does
// to pending actions there, with the version it was told ("" when the
// server did not answer: then the effect is unknown).
func (c *Client) MessageEffect(ctx context.Context) (MessageEffect, string) {
	info, err := c.ServerInfo(ctx)
	if err != nil {
		return MessageEffectUnknown, ""
	}
	v := info.SDKVersion
	if v == "" {
		v = info.Version
	}
	return MessageEffectOf(v), v
}
