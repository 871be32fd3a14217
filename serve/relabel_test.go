package serve

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/internal/upstream"
	"ohwatch/model"
)

// TestRelabelRealRecordings makes every upstream recording into a restart's
// events: each event keeps its kind, source and summary, gets a fresh id,
// moves by the shift, and no recorded id is left anywhere in its bytes,
// while references (an observation's action_id, a rejection's) follow.
func TestRelabelRealRecordings(t *testing.T) {
	for _, dir := range upstream.Trajectories(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			recorded := testevents.Recorded(t, dir)
			conv := loopID("0c8a3d0e5f1b4a7e9d3c2b1a0f9e8d7c", 1)
			shift := loopShift(recorded, 1)
			if shift <= time.Second {
				t.Fatalf("shift %s does not pass the recording's span", shift)
			}
			got := newRelabeler(recorded, conv, shift).events(recorded)
			fresh := map[string]string{}
			for _, ev := range recorded {
				fresh[ev.ID] = derivedUUID(conv + "/" + ev.ID)
			}
			for i, ev := range recorded {
				g := got[i]
				if g.ID != fresh[ev.ID] || g.Kind != ev.Kind || g.Source != ev.Source || g.Summary != ev.Summary {
					t.Fatalf("event %d: %s %s %q, want %s %s %q", i, g.ID, g.Kind, g.Summary, fresh[ev.ID], ev.Kind, ev.Summary)
				}
				if _, unknown := g.Body.(*model.Unknown); unknown != isUnknown(ev) {
					t.Fatalf("event %d decodes differently after relabelling", i)
				}
				if !ev.Time.IsZero() && !g.Time.Equal(ev.Time.Add(shift)) {
					t.Fatalf("event %d at %v, want %v", i, g.Time, ev.Time.Add(shift))
				}
				for old := range fresh {
					if bytes.Contains(g.Raw, []byte(`"`+old+`"`)) {
						t.Fatalf("event %d still names the recorded id %s", i, old)
					}
				}
				if want, ok := fresh[actionOf(ev)]; ok && actionOf(g) != want {
					t.Fatalf("event %d answers %s, want the new action %s", i, actionOf(g), want)
				}
			}
		})
	}
}

func isUnknown(ev model.Event) bool {
	_, ok := ev.Body.(*model.Unknown)
	return ok
}

// actionOf is the action id an observation or rejection answers ("" for
// other events).
func actionOf(ev model.Event) string {
	switch b := ev.Body.(type) {
	case *model.Observation:
		return b.ActionID
	case *model.UserReject:
		return b.ActionID
	}
	return ""
}

// FuzzRelabel relabels arbitrary event bytes: it never panics, never loses
// an event, and an event that decoded still decodes to the same kind.
func FuzzRelabel(f *testing.F) {
	if upstream.Present(f) {
		for _, ev := range testevents.Twin(f, "confirmation_mode") {
			f.Add(ev.Raw, ev.ID)
		}
	}
	f.Add([]byte(`{"id":"a","timestamp":"x","kind":"MessageEvent"}`), "a")
	f.Add([]byte(`{"id":"a","timestamp":"2026-01-01T00:00:00","timestamp":"2026-01-01T00:00:00","kind":"ObservationEvent","action_id":"a"}`), "a")
	f.Fuzz(func(t *testing.T, raw []byte, ref string) {
		ev, err := model.Decode(raw)
		if err != nil {
			return
		}
		other := ev
		other.ID = ref
		got := newRelabeler([]model.Event{ev, other}, loopID("fuzz", 1), time.Hour).events([]model.Event{ev})
		if len(got) != 1 || got[0].Kind != ev.Kind {
			t.Fatalf("relabelled %q into %+v", raw, got)
		}
	})
}

// BenchmarkRelabel10k is the cost of one Loop restart of a 10k-event
// recording: every event's ids and timestamp rewritten and decoded again.
func BenchmarkRelabel10k(b *testing.B) {
	recorded := testevents.Generated(b, 10_000, 1)
	var size int
	for _, ev := range recorded {
		size += len(ev.Raw)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for n := 1; b.Loop(); n++ {
		conv := loopID("bench", n)
		newRelabeler(recorded, conv, loopShift(recorded, n)).events(recorded)
	}
}

// TestRelabelTouchesOnlyIDs: ids the recording refers to are relabelled
// wherever they stand as a whole string (a condensation's forgotten ids
// too); a text that mentions an id among other words, a member's name and
// a "kind" value stay as recorded.
func TestRelabelTouchesOnlyIDs(t *testing.T) {
	r := newRecording(t)
	a := r.userMessage("first")
	b := r.agentMessage("second")
	c := r.userMessage("forget " + a + " please")
	r.add("Condensation", "environment", `"forgotten_event_ids":["`+a+`", "`+b+`"],"summary":null,"`+a+`":"`+a+`"`)
	conv := loopID(convID, 1)
	got := newRelabeler(r.evs, conv, 0).events(r.evs)
	newA, newB := derivedUUID(conv+"/"+a), derivedUUID(conv+"/"+b)
	cond, ok := got[3].Body.(*model.Condensation)
	if !ok || len(cond.ForgottenIDs) != 2 || cond.ForgottenIDs[0] != newA || cond.ForgottenIDs[1] != newB {
		t.Fatalf("forgotten ids %+v, want %s %s", got[3].Body, newA, newB)
	}
	if !bytes.Contains(got[3].Raw, []byte(`"`+a+`":"`+newA+`"`)) {
		t.Errorf("a member named like an id was renamed, or its value not relabelled: %s", got[3].Raw)
	}
	if !bytes.Contains(got[2].Raw, []byte("forget "+a+" please")) || got[2].ID != derivedUUID(conv+"/"+c) {
		t.Errorf("text mentioning an id changed, or the event kept its id: %s", got[2].Raw)
	}
}
