package reducer

import (
	"testing"

	"ohwatch/model"
)

// TestEveryKindIsCounted folds one minimal event of every kind of the
// table, and one of a kind outside it, and finds each counted under its
// name: a kind added to the table is counted without a change here.
func TestEveryKindIsCounted(t *testing.T) {
	s := Initial(nil, 0)
	want := map[string]int{}
	for i, k := range model.Kinds() {
		ev, err := model.Decode([]byte(`{"kind":"` + k.Name + `","id":"e` + string(rune('a'+i)) + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		s = Apply(s, ev)
		want[k.Name]++
	}
	ev, err := model.Decode([]byte(`{"kind":"ExperimentalThingEvent","id":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	s = Apply(s, ev)
	want["ExperimentalThingEvent"]++
	got := s.Kinds()
	if len(got) != len(want) {
		t.Errorf("counted %v, want %v", got, want)
	}
	for name, n := range want {
		if got[name] != n {
			t.Errorf("kind %s counted %d times, want %d", name, got[name], n)
		}
	}
}
