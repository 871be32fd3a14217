package serve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/testevents"
	"ohwatch/internal/upstream"
	"ohwatch/model"
)

// TestRealBaseStatesAreTheTemplate serves a recording with each old
// base_state.json (the project's, and the real ones where ../shared is) and checks that ConversationInfo and the snapshot keep
// every field of it, with the id, status and stats of the replay.
func TestRealBaseStatesAreTheTemplate(t *testing.T) {
	files := oldBaseStates(t)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			base, err := model.DecodeBaseState(raw)
			if err != nil {
				t.Fatal(err)
			}
			var want map[string]json.RawMessage
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			evs := testevents.Twin(t, "simple_echo_hello_world")
			s := New(Options{})
			s.Add(base.ID, base, evs)
			url, err := s.Start(t.Context(), "")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			waitFor(t, "the replay", func() bool { return s.conversation(base.ID).finished() })

			var info map[string]json.RawMessage
			get(t, url+"/api/conversations/"+base.ID, "", &info)
			ws := dial(t, url, base.ID, "", nil)
			var snap struct {
				Value map[string]json.RawMessage `json:"value"`
			}
			if err := json.Unmarshal(ws.next().Raw, &snap); err != nil {
				t.Fatal(err)
			}
			for name, fields := range map[string]map[string]json.RawMessage{"ConversationInfo": info, "full_state": snap.Value} {
				for k, v := range want {
					got, ok := fields[k]
					switch {
					case !ok:
						t.Errorf("%s lacks %s", name, k)
					case k == "execution_status":
						// base_state.json describes the end of the
						// recording: once it is all emitted, its status is
						// the conversation's.
						if string(got) != string(mustJSON(base.ExecutionStatus)) {
							t.Errorf("%s status %s, want %q", name, got, base.ExecutionStatus)
						}
					case k != "stats" && string(got) != string(compact(t, v)):
						t.Errorf("%s %s = %s, want %s", name, k, got, v)
					}
				}
			}
		})
	}
}

func compact(t *testing.T, v json.RawMessage) []byte {
	t.Helper()
	b, err := marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// oldBaseStates lists the base_state.json files of older SDK versions: the
// project's own (internal/fixtures), and upstream's where ../shared is.
func oldBaseStates(t *testing.T) []string {
	t.Helper()
	files := []string{fixtures.Path(t, fixtures.BaseStateV1115), fixtures.Path(t, fixtures.BaseStateV1170)}
	if upstream.Present(t) {
		more, err := filepath.Glob(filepath.Join(upstream.Dir(t), "base_state", "*.json"))
		if err != nil || len(more) == 0 {
			t.Fatalf("no upstream base states: %v", err)
		}
		files = append(files, more...)
	}
	return files
}
