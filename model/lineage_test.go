package model

import "testing"

// TestSpawnedConversation: the launch_child_conversation observation names
// the child it launched; other observations, and an id that is not a
// conversation's, name none.
func TestSpawnedConversation(t *testing.T) {
	for _, tt := range []struct{ raw, want string }{
		{`{"id":"7d1c8f0e-4b1a-4c55-9d0e-3f2a1b6c7d8e","timestamp":"2026-03-14T09:30:00.000000","source":"environment","tool_name":"launch_child_conversation","tool_call_id":"toolu_1","observation":{"content":[],"is_error":false,"conversation_id":"5A0B2C3D-1111-4222-8333-944455556666","execution_status":"running","workspace":"/workspace/project","url_path":"/conversations/5a0b2c3d111142228333944455556666","kind":"LaunchChildConversationObservation"},"action_id":"a1","kind":"ObservationEvent"}`,
			"5a0b2c3d111142228333944455556666"},
		{`{"id":"7d1c8f0e-4b1a-4c55-9d0e-3f2a1b6c7d8f","timestamp":"2026-03-14T09:30:00.000000","source":"environment","tool_name":"launch_child_conversation","tool_call_id":"toolu_1","observation":{"content":[],"conversation_id":"not-an-id\u001b[2J","kind":"LaunchChildConversationObservation"},"action_id":"a1","kind":"ObservationEvent"}`,
			""},
		{`{"id":"7d1c8f0e-4b1a-4c55-9d0e-3f2a1b6c7d90","timestamp":"2026-03-14T09:30:00.000000","source":"environment","tool_name":"terminal","tool_call_id":"toolu_1","observation":{"content":[],"conversation_id":"5a0b2c3d-1111-4222-8333-944455556666","kind":"TerminalObservation"},"action_id":"a1","kind":"ObservationEvent"}`,
			""},
	} {
		ev, err := Decode([]byte(tt.raw))
		if err != nil {
			t.Fatal(err)
		}
		if got := SpawnedConversation(&ev); got != tt.want {
			t.Errorf("SpawnedConversation = %q, want %q", got, tt.want)
		}
	}
}
