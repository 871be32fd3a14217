package reducer

import "ohwatch/model"

// NextLeaf is HEAD (the server's leaf_event_id) after ev, given HEAD before
// it, by upstream's rule: HEAD moves to every event but the artifacts
// (state updates, errors, …), and a full_state snapshot says where it is.
// A writer of base_state.json derives HEAD with it, so that the recording
// follows the events, not a snapshot they have moved past.
func NextLeaf(leaf string, ev model.Event) string {
	if u, ok := ev.Body.(*model.StateUpdate); ok && u.LeafEventID != "" {
		return u.LeafEventID
	}
	if !isArtifact(&ev) {
		return ev.ID
	}
	return leaf
}
