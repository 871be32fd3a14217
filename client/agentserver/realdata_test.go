package agentserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/sanitize"
	"ohwatch/internal/upstream"
)

// TestConversationFromRealBaseStates serves the real base_state.json
// fixtures as ConversationInfo (the same shape) and reads them back.
func TestConversationFromRealBaseStates(t *testing.T) {
	for _, tc := range []struct {
		file, id string
	}{
		{"v1_11_5_cli_default.json", "11111111222233334444555555555555"},
		{"v1_17_0_with_mcp_config.json", "22222222333344445555666666666666"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(upstream.Dir(t), "base_state", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Write(raw)
			}))
			defer srv.Close()
			c, _ := New(srv.URL, "k")
			info, err := c.Conversation(context.Background(), tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if info.ID != tc.id || info.ExecutionStatus != "idle" || info.Base == nil || info.Base.MaxIterations != 500 {
				t.Errorf("info = %+v, base = %+v", info, info.Base)
			}
			if info.Base.Stats == nil {
				t.Error("stats were not decoded")
			}
		})
	}
}

// TestEventsFromRealRecordings pages every real recording through a
// server that answers like the agent-server, three events a page.
func TestEventsFromRealRecordings(t *testing.T) {
	for _, dir := range upstream.Trajectories(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			f := newFakeServer(t, "k")
			f.pageLimit = 3
			var want []string
			for _, raw := range upstream.EventFiles(t, dir) {
				f.persistLocked(raw)
				want = append(want, idOf(raw))
			}
			evs, err := f.client(t).Events(context.Background(), f.id)
			if err != nil {
				t.Fatal(err)
			}
			checkExactly(t, idsOf(evs), want)
			for _, ev := range evs {
				if ev.Kind == "" || strings.Contains(ev.Summary, "\x1b") {
					t.Errorf("event %s decoded badly: kind %q summary %q", ev.ID, ev.Kind, ev.Summary)
				}
			}
		})
	}
}

// FuzzDecodeConversation feeds arbitrary bytes where a ConversationInfo is
// expected: an error, never a panic. Seeded with the real fixtures.
func FuzzDecodeConversation(f *testing.F) {
	for _, name := range []string{"v1_11_5_cli_default.json", "v1_17_0_with_mcp_config.json"} {
		raw, err := os.ReadFile(filepath.Join(upstream.Dir(f), "base_state", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Add([]byte(`{"id":7,"title":["x"]}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"id":"a","forked_from_conversation_id":"B","forked_from_event_id":"\u001b]0;x","sub_conversation_ids":["c",null,3]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		info, err := decodeConversation(raw)
		if err == nil && info == nil {
			t.Fatal("no error and no info")
		}
		if err != nil {
			return
		}
		for _, s := range append([]string{info.ForkedFromConversationID, info.ForkedFromEventID, info.ParentConversationID, info.LeafEventID}, info.SubConversationIDs...) {
			if s != sanitize.Line(s) {
				t.Fatalf("an id reaches the screen unsanitised: %q", s)
			}
		}
	})
}
