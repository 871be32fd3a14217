package guard

import (
	"testing"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/reducer"
)

// TestFleetJudgesEachConversationOnceEach: two conversations are judged
// apart, and events sent again (a reconnect's resend) are not counted
// twice.
func TestFleetJudgesEachConversationOnceEach(t *testing.T) {
	rules, _ := ParseAll([]string{"steps>5:pause"})
	f := NewFleet(rules)
	a := model.ConversationRef{Source: "http://s", Kind: model.SourceServer, ID: "a"}
	b := model.ConversationRef{Source: "http://s", Kind: model.SourceServer, ID: "b"}
	evs := testevents.Generated(t, 200, 7)
	want := firstWhere(evs, func(st reducer.State) bool { return st.Steps > 5 })
	var got []FleetReport
	for i := 0; i < len(evs); i += 10 {
		end := min(i+20, len(evs)) // every batch overlaps the one before
		got = append(got, f.Apply([]model.FleetUpdate{{Ref: a, Batch: model.Batch{Events: evs[i:end]}}})...)
	}
	if len(got) != 1 || got[0].Ref != a || got[0].EventID != evs[want].ID {
		t.Fatalf("reports %+v, want one for a at event %d", got, want)
	}
	if r := f.Apply([]model.FleetUpdate{{Ref: b, Batch: model.Batch{Events: evs[:want+1]}}}); len(r) != 1 || r[0].Ref != b {
		t.Fatalf("b: %+v", r)
	}
	if NewFleet(nil) != nil || NewFleet(nil).Apply(nil) != nil {
		t.Error("a fleet without rules judges")
	}
}
