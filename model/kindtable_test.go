package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rivo/uniseg"
)

// minimal is the smallest event of a kind: its kind and an id.
func minimal(name string) []byte { return []byte(`{"kind":"` + name + `","id":"e1"}`) }

// TestEveryKindOfTheTable decodes a minimal event of every kind of the
// table: it gets the kind's own body (not *Unknown), KindOf finds the
// kind, the name is the table's, the full payload decodes to a type of its
// own, and no other kind claims the body. A kind added to the table is
// checked without a change here.
func TestEveryKindOfTheTable(t *testing.T) {
	for i, k := range Kinds() {
		ev, err := Decode(minimal(k.Name))
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		if reason, unknown := IsUnknown(ev); unknown {
			t.Errorf("%s decodes as unknown (%q)", k.Name, reason)
		}
		if got := KindOf(&ev); got != &Kinds()[i] {
			t.Errorf("%s: KindOf = %v", k.Name, got)
		}
		if KindIndex(k.Name) != i || KindIndex(strings.Clone(k.Name)) != i || KindNamed(k.Name) != &Kinds()[i] {
			t.Errorf("%s: KindIndex = %d, want %d", k.Name, KindIndex(k.Name), i)
		}
		d, err := ev.Detail()
		if _, unknown := d.(*UnknownEvent); err != nil || unknown {
			t.Errorf("%s: Detail = %T, %v", k.Name, d, err)
		}
		for j, other := range Kinds() {
			if j != i && other.is(ev.Body) {
				t.Errorf("%s's body %T is also %s's", k.Name, ev.Body, other.Name)
			}
		}
		// An event built by hand without its name is still found by body.
		if got := KindOf(&Event{Body: ev.Body}); got != &Kinds()[i] {
			t.Errorf("%s by body alone: %v", k.Name, got)
		}
	}
}

// TestKindTableIsConsistent checks what the readers rely on: unique names,
// a group, a module and a one-cell glyph per kind, and kinds of one group
// that agree on noise and glyph.
func TestKindTableIsConsistent(t *testing.T) {
	if NumKinds != len(Kinds()) {
		t.Errorf("NumKinds %d, table %d", NumKinds, len(Kinds()))
	}
	seen := map[string]bool{}
	byGroup := map[string]EventKind{}
	for _, k := range Kinds() {
		if seen[k.Name] {
			t.Errorf("%s twice", k.Name)
		}
		seen[k.Name] = true
		if k.Group == "" || k.Group == GroupUnknown || k.Module == "" || k.decode == nil || k.detail == nil || k.is == nil {
			t.Errorf("%s: incomplete row %+v", k.Name, k)
		}
		if uniseg.StringWidth(k.Glyph) != 1 || len([]rune(k.Glyph)) != 1 {
			t.Errorf("%s: glyph %q is not one cell", k.Name, k.Glyph)
		}
		if first, ok := byGroup[k.Group]; ok && (first.Noise != k.Noise || first.Glyph != k.Glyph) {
			t.Errorf("%s and %s share group %s but not noise/glyph", first.Name, k.Name, k.Group)
		} else if !ok {
			byGroup[k.Group] = k
		}
		if GroupIsNoise(k.Group) != k.Noise || GroupGlyph(k.Group) != k.Glyph {
			t.Errorf("%s: group %s noise %v glyph %q", k.Name, k.Group, GroupIsNoise(k.Group), GroupGlyph(k.Group))
		}
	}
	groups := Groups()
	if len(groups) != len(byGroup)+1 || groups[len(groups)-1] != GroupUnknown {
		t.Errorf("groups %v", groups)
	}
}

func TestKindsOutsideTheTable(t *testing.T) {
	for _, raw := range []string{`{"kind":"ExperimentalThingEvent"}`, `{"id":"x"}`, `{"kind":"ActionEvent","tool_name":7}`} {
		ev, err := Decode([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if k := KindOf(&ev); k != nil {
			t.Errorf("%s: KindOf = %s", raw, k.Name)
		}
		if GroupOf(&ev) != GroupUnknown {
			t.Errorf("%s: group %s", raw, GroupOf(&ev))
		}
	}
	for _, name := range []string{"", "Event", "messageevent", "MessageEvent ", strings.Repeat("x", 200)} {
		if KindIndex(name) != -1 || KindNamed(name) != nil {
			t.Errorf("%q is a kind", name)
		}
	}
	if n := testing.AllocsPerRun(100, func() { KindIndex("ConversationStateUpdateEvent") }); n != 0 {
		t.Errorf("KindIndex allocates %v times", n)
	}
}

func TestPersisted(t *testing.T) {
	for _, k := range Kinds() {
		ev, err := Decode(minimal(k.Name))
		if err != nil {
			t.Fatal(err)
		}
		if Persisted(ev) == k.LiveOnly {
			t.Errorf("%s (live-only %v): persisted %v", k.Name, k.LiveOnly, Persisted(ev))
		}
	}
	for raw, want := range map[string]bool{
		`{"kind":"ConversationStateUpdateEvent","key":"full_state","value":{}}`: false,
		`{"kind":"ConversationStateUpdateEvent","key":"stats","value":{}}`:      true,
		`{"kind":"StreamingDeltaEvent","content":7}`:                            false, // malformed, still live-only
		`{"kind":"ExperimentalThingEvent"}`:                                     true,
	} {
		ev, err := Decode([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if Persisted(ev) != want {
			t.Errorf("%s: persisted %v, want %v", raw, !want, want)
		}
	}
	// The same per-field update is live-only when a socket sent it as it
	// subscribed.
	ev, err := Decode([]byte(`{"kind":"ConversationStateUpdateEvent","key":"execution_status","value":"idle"}`))
	if err != nil || !Persisted(ev) {
		t.Fatalf("a per-field update: persisted %v (%v)", Persisted(ev), err)
	}
	ev.Body.(*StateUpdate).Subscribe = true
	if Persisted(ev) {
		t.Error("the subscribe-time idle is persisted")
	}
}

// BenchmarkKindOf looks up the kind of decoded events of every kind.
func BenchmarkKindOf(b *testing.B) {
	evs := make([]Event, 0, NumKinds)
	for _, k := range Kinds() {
		ev, err := Decode(minimal(k.Name))
		if err != nil {
			b.Fatal(err)
		}
		evs = append(evs, ev)
	}
	k := 0
	for b.Loop() {
		if KindOf(&evs[k%len(evs)]) == nil {
			b.Fatal("no kind")
		}
		k++
	}
}

// TestAddingRowsCannotFail: the index of a table grown by many rows,
// names of every length and shape, is built without a panic and finds
// every row, old and new, at its position.
func TestAddingRowsCannotFail(t *testing.T) {
	rows := append([]EventKind(nil), Kinds()...)
	for i := range 300 {
		rows = append(rows, EventKind{Name: strings.Repeat("X", i%40+1) + fmt.Sprint(i) + "Event"})
	}
	index := indexKinds(rows)
	for i, k := range rows {
		if got, ok := index[k.Name]; !ok || got != i {
			t.Fatalf("%s: at %d, %v; want %d", k.Name, got, ok, i)
		}
	}
}

// TestKindIndexOfNamesOutsideTheTable: names that are not kinds, however
// short or close to one, are -1.
func TestKindIndexOfNamesOutsideTheTable(t *testing.T) {
	for _, name := range []string{"", "A", "Ev", "ActionEven", "ActionEventX", "actionevent", "ExperimentalThingEvent", "\x00"} {
		if i := KindIndex(name); i != -1 {
			t.Errorf("KindIndex(%q) = %d", name, i)
		}
	}
}

// BenchmarkKindIndex looks up every kind's name, as Decode does with a
// name read from the event's bytes (a copy, not the table's string), and
// a name outside the table.
func BenchmarkKindIndex(b *testing.B) {
	names := make([]string, 0, NumKinds+2)
	for _, k := range Kinds() {
		names = append(names, strings.Clone(k.Name))
	}
	names = append(names, "ExperimentalThingEvent", "Foo")
	n := 0
	for b.Loop() {
		for _, name := range names {
			n += KindIndex(name)
		}
	}
	if n == 0 {
		b.Fatal(n)
	}
}
