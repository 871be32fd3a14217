package serve

import (
	"slices"
	"testing"

	"ohwatch/demo"
	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
)

// servedRecording is a recording as `serve` gets it: its events and its
// base_state.json (nil for none).
type servedRecording struct {
	name string
	base *model.BaseState
	evs  []model.Event
}

// everyRecording is every real recording, the demo and a generated
// conversation with its base state.
func everyRecording(t *testing.T) []servedRecording {
	t.Helper()
	var out []servedRecording
	for _, name := range []string{"simple_echo_hello_world", "confirmation_mode", "creating_agent_plan", "cli447_hi_followup_iterative_case_a"} {
		out = append(out, servedRecording{name: name, evs: testevents.Twin(t, name)})
	}
	rawBase, rawEvents := demo.Conversation()
	out = append(out, servedRecording{name: "demo", base: decodeBase(t, rawBase), evs: decodeAll(t, rawEvents)})
	const n = 3000
	genBase := decodeBase(t, gen.BaseState(gen.Options{Events: n, Seed: 7}))
	out = append(out, servedRecording{name: "generated", base: genBase, evs: testevents.Generated(t, n, 7)})
	return out
}

func decodeBase(t *testing.T, raw []byte) *model.BaseState {
	t.Helper()
	b, err := model.DecodeBaseState(raw)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeAll(t *testing.T, raws [][]byte) []model.Event {
	t.Helper()
	out := make([]model.Event, len(raws))
	for i, raw := range raws {
		ev, err := model.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = ev
	}
	return out
}

// derivedStatuses is every status the reducer derives from the recording,
// in order: what `replay` shows.
func derivedStatuses(r servedRecording) []string {
	st := reducer.Fold(reducer.Initial(r.base, len(r.evs)), r.evs...)
	var out []string
	for _, tr := range st.Transitions() {
		out = append(out, tr.To)
	}
	return out
}

// TestPerFieldStatusClient reads every recording the way the upstream
// examples do (watch_attach.py): only per-field execution_status updates
// count. The client must see every status the reducer derives, in order,
// end on a terminal one, and get the snapshot that confirms it.
func TestPerFieldStatusClient(t *testing.T) {
	for _, r := range everyRecording(t) {
		t.Run(r.name, func(t *testing.T) {
			want := derivedStatuses(r)
			if len(want) == 0 || !terminal(want[len(want)-1]) {
				t.Fatalf("the reducer derives %v: the recording does not end", want)
			}
			t.Logf("derived: %v", want)
			s := New(Options{StartPaused: true})
			s.Add(convID, r.base, r.evs)
			base, err := s.Start(t.Context(), "")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			ws := dial(t, base, convID, "", nil)
			if statusOf(ws.next()) != "idle" {
				t.Fatal("the first frame is not execution_status=idle")
			}
			s.Run(convID)
			var got []string
			for len(got) < len(want) {
				ev := ws.next()
				if st := statusOf(ev); st != "" && (len(got) == 0 || got[len(got)-1] != st) {
					got = append(got, st)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("per-field statuses\n got %v\nwant %v", got, want)
			}
			// The run's end is confirmed by a snapshot; nothing else
			// changes the status.
			for {
				ev := ws.next()
				if st := statusOf(ev); st != "" && st != want[len(want)-1] {
					t.Fatalf("status %q after the last derived one", st)
				}
				if ok, st := isFullState(ev); ok {
					if st != want[len(want)-1] {
						t.Fatalf("the final snapshot says %q", st)
					}
					break
				}
			}
		})
	}
}

// terminal is protocol §3.1's is_terminal.
func terminal(status string) bool {
	return status == model.StatusFinished || status == model.StatusError || status == model.StatusStuck
}
