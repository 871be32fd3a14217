package model

import "encoding/json"

// KindLaunchChildObservation is the observation of the agent-server's
// launch_child_conversation tool: the event by which a conversation starts
// a sub-conversation on the same server (the child's
// parent_conversation_id names it back; the parent lists it in
// sub_conversation_ids). It carries the child's conversation_id,
// execution_status, workspace and url_path.
const KindLaunchChildObservation = "LaunchChildConversationObservation"

// SpawnedConversation is the normalised id of the conversation ev launched:
// the conversation_id of a LaunchChildConversationObservation; "" for any
// other event, and for one whose id is not a conversation id.
func SpawnedConversation(ev *Event) string {
	o, ok := ev.Body.(*Observation)
	if !ok || o.ObservationKind != KindLaunchChildObservation {
		return ""
	}
	var v struct {
		Observation struct {
			ConversationID string `json:"conversation_id"`
		} `json:"observation"`
	}
	if json.Unmarshal(ev.Raw, &v) != nil || !IsConversationID(v.Observation.ConversationID) {
		return ""
	}
	return NormalizeConversationID(v.Observation.ConversationID)
}
