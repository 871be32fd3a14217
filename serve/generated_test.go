package serve

import (
	"net/http"
	"testing"

	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// TestGeneratedConversation replays a long realistic conversation (per-field
// status and stats updates, several runs) and checks that REST paging and
// the socket's resend hand back exactly the recording.
func TestGeneratedConversation(t *testing.T) {
	evs := testevents.Generated(t, 450, 7)
	s, base := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)

	var got []model.Event
	eachPage(t, eventsURL(base, convID, "/search?limit=100"), testKey, len(evs)/100+1, func(p page, _ string) {
		for _, item := range p.Items {
			ev, _ := model.Decode(item)
			got = append(got, ev)
		}
	})
	if len(got) != len(evs) {
		t.Fatalf("REST paged %d events, want %d", len(got), len(evs))
	}
	for i := range evs {
		if got[i].ID != evs[i].ID {
			t.Fatalf("REST event %d is %s, want %s", i, got[i].ID, evs[i].ID)
		}
	}

	ws := dial(t, base, convID, "resend_mode=all", http.Header{"X-Session-Api-Key": {testKey}})
	ok, status := isFullState(ws.next())
	if !ok {
		t.Fatal("first frame is not full_state")
	}
	var info map[string]any
	get(t, base+"/api/conversations/"+convID, testKey, &info)
	if status != info["execution_status"] {
		t.Errorf("snapshot says %q, REST %v", status, info["execution_status"])
	}
	for i, ev := range ws.nextN(len(evs)) {
		if !rawEqual(ev.Raw, evs[i].Raw) {
			t.Fatalf("socket frame %d differs from the recording", i)
		}
	}
}
