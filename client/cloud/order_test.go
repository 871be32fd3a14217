package cloud

import (
	"strings"
	"testing"
	"time"

	"ohwatch/model"
)

// ev is a stored event for the ordering tests.
func ev(id, parent string, at time.Duration) model.Event {
	e := model.Event{ID: id, ParentID: parent, Kind: "ActionEvent"}
	if at >= 0 {
		e.Time = time.Date(2026, 12, 7, 7, 41, 21, 0, time.UTC).Add(at)
	}
	return e
}

func ids(evs []model.Event) string {
	var b []string
	for _, e := range evs {
		b = append(b, e.ID)
	}
	return strings.Join(b, " ")
}

// TestOrderStored: stored events come back grouped by kind within each
// second; their microsecond timestamps put them back in the order they
// happened, and a child never precedes its parent.
func TestOrderStored(t *testing.T) {
	us := time.Microsecond
	tests := []struct {
		name   string
		in     []model.Event
		want   string
		warned []string // ids warned about
	}{
		{"by time", []model.Event{ev("c", "b", 30*us), ev("a", "", 10*us), ev("b", "a", 20*us)}, "a b c", nil},
		{"parent after child in time", []model.Event{ev("a", "", 10*us), ev("c", "b", 20*us), ev("b", "a", 30*us)}, "a b c", nil},
		{"tie linked", []model.Event{ev("b", "a", 10*us), ev("a", "", 10*us)}, "a b", nil},
		{"tie unlinked keeps the server's order, warned", []model.Event{ev("x", "", 10*us), ev("y", "", 10*us)}, "x y", []string{"x", "y"}},
		{"no timestamp", []model.Event{ev("a", "", 10*us), ev("n", "a", -1)}, "a n", []string{"n"}},
		{"parents naming each other", []model.Event{ev("p", "q", 10*us), ev("q", "p", 20*us)}, "p q", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, warns := orderStored(tt.in)
			if got := ids(out); got != tt.want {
				t.Errorf("order %q, want %q", got, tt.want)
			}
			if len(warns) != len(tt.warned) {
				t.Fatalf("warnings %q, want one for each of %q", warns, tt.warned)
			}
			for i, id := range tt.warned {
				if !strings.Contains(warns[i], "stored event "+id+" ") {
					t.Errorf("warning %q is not about %s", warns[i], id)
				}
			}
			for _, e := range out {
				for _, id := range tt.warned {
					if e.ID == id && e.ParentID != "" {
						t.Errorf("event %s, placed by a guess, keeps parent %s: it would show as a branch", id, e.ParentID)
					}
				}
			}
		})
	}
}

// TestOrderStoredWarningsCapped: a history of many guessed places says so
// in a few lines, not one per event.
func TestOrderStoredWarningsCapped(t *testing.T) {
	var in []model.Event
	for i := range 50 {
		in = append(in, ev(string(rune('A'+i)), "", 0))
	}
	_, warns := orderStored(in)
	if len(warns) != maxOrderWarnings+1 || !strings.Contains(warns[len(warns)-1], "45 more") {
		t.Errorf("warnings %q", warns)
	}
}
