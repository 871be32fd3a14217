package conversation

import (
	"slices"
	"testing"

	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// Short kinds the tests name.
const (
	kindMessage  = model.GroupMessage
	kindAction   = model.GroupAction
	kindCondense = model.GroupCondense
)

// TestEveryKindHasAColumnAndAFilter decodes a minimal event of every kind of
// model.Kinds and finds its group in the kind column and in the kind
// filter, fitting the column; noise is hidden by the default filter. A
// kind added to the table is listed without a change here.
func TestEveryKindHasAColumnAndAFilter(t *testing.T) {
	t.Parallel()
	groups := allKinds()
	for _, k := range model.Kinds() {
		ev := tuitest.Decode(t, []byte(`{"kind":"`+k.Name+`","id":"e1"}`))
		got := shortKind(&ev)
		if got != k.Group {
			t.Errorf("%s is listed as %q, want %q", k.Name, got, k.Group)
		}
		if !slices.Contains(groups, got) {
			t.Errorf("%s: the kind filter does not offer %q", k.Name, got)
		}
		if len([]rune(got)) > kindColumnLen {
			t.Errorf("%s: %q does not fit the kind column", k.Name, got)
		}
		if k.Group == model.GroupError && !isError(&ev) {
			t.Errorf("%s (group %s) is not highlighted as an error", k.Name, k.Group)
		}
		if shows := defaultFilter().shows(got); shows == k.Noise {
			t.Errorf("%s (noise %v): the default filter shows it: %v", k.Name, k.Noise, shows)
		}
	}
	for _, raw := range []string{`{"kind":"ExperimentalThingEvent"}`, `{"kind":"ActionEvent","tool_name":7}`} {
		ev := tuitest.Decode(t, []byte(raw))
		if got := shortKind(&ev); got != model.GroupUnknown || groups[len(groups)-1] != got {
			t.Errorf("%s is listed as %q, want the filter's last group %q", raw, got, model.GroupUnknown)
		}
	}
}

// TestKindFilterOrder pins the kind filter's order, which the table's order
// gives.
func TestKindFilterOrder(t *testing.T) {
	t.Parallel()
	want := []string{"Msg", "Action", "Obs", "Reject", "Error", "System", "State", "Condense", "Hook", "ACP",
		"Pause", "LLMLog", "Delta", "Token", "Ask", "Risk", "Warn", "Config", "Unknown"}
	if got := allKinds(); !slices.Equal(got, want) {
		t.Errorf("kind filter\n got %v\nwant %v", got, want)
	}
}

// BenchmarkKindFilterShows is what the kind filter costs per event it
// scans: the event's short kind from the table, then the filter's
// verdict on it.
func BenchmarkKindFilterShows(b *testing.B) {
	evs := tuitest.GeneratedEvents(b, 10000, 1)
	f := defaultFilter()
	n, k := 0, 0
	for b.Loop() {
		if f.shows(shortKind(&evs[k%len(evs)])) {
			n++
		}
		k++
	}
	if n == 0 {
		b.Fatal("nothing shown")
	}
}
