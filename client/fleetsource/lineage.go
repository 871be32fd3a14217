package fleetsource

import "ohwatch/client/agentserver"

// delegators maps each conversation a listed one delegated
// (sub_conversation_ids) to that parent: a sub-conversation may not name
// its parent itself, and the table puts it under its parent either way.
func delegators(infos []*agentserver.ConversationInfo) map[string]string {
	out := map[string]string{}
	for _, info := range infos {
		for _, sub := range info.SubConversationIDs {
			if sub != info.ID {
				out[sub] = info.ID
			}
		}
	}
	return out
}
