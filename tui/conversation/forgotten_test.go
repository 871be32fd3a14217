package conversation

import (
	"fmt"
	"strings"
	"testing"

	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// userMessage is a user MessageEvent with the given id and text.
func userMessage(id, ts, text string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":%q,"source":"user","llm_message":{"role":"user","content":[{"type":"text","text":%q}]},"kind":"MessageEvent"}`,
		id, ts, text)
}

// rowOf returns the screen line of the list row numbered #n.
func rowOf(t *testing.T, out string, n int) string {
	t.Helper()
	want := fmt.Sprintf("#%d ", n)
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, want) && strings.Contains(line, "Msg") {
			return line
		}
	}
	t.Fatalf("no row %s on the screen:\n%s", want, out)
	return ""
}

func TestForgottenEventsAreMarkedAsOfTheCursor(t *testing.T) {
	t.Parallel()
	log := tuitest.FixtureLog(t,
		userMessage("m1", "2026-01-27T03:56:20.000000", "first"),
		userMessage("m2", "2026-01-27T03:56:21.000000", "second"),
		userMessage("m3", "2026-01-27T03:56:22.000000", "third"),
		userMessage("m4", "2026-01-27T03:56:23.000000", "fourth"),
		`{"id":"c1","timestamp":"2026-01-27T03:56:24.000000","source":"environment","forgotten_event_ids":["m2","m3"],"summary":"the user said hello","summary_offset":1,"llm_response_id":"r1","kind":"Condensation"}`,
		userMessage("m5", "2026-01-27T03:56:25.000000", "fifth"),
	)
	m := newModel(Options{Log: log, Title: "condensed"}, 160, 48)
	g := m.styles.Glyphs.Forgotten

	// Before the condensation nothing is forgotten.
	m, _ = press(t, m, "j", "j", "j")
	out := screen(m)
	for n := 1; n <= 4; n++ {
		if strings.Contains(rowOf(t, out, n), g) {
			t.Fatalf("row #%d marked forgotten before the condensation:\n%s", n, out)
		}
	}

	// At the condensation and after it, the events it forgot are marked,
	// the others are not.
	for _, key := range []string{"j", "j"} {
		m, _ = press(t, m, key)
		out = screen(m)
		for n, want := range map[int]bool{1: false, 2: true, 3: true, 4: false, 6: false} {
			if got := strings.Contains(rowOf(t, out, n), g); got != want {
				t.Fatalf("cursor #%d: row #%d forgotten mark %v, want %v:\n%s", m.cursor+1, n, got, want, out)
			}
		}
		if !strings.Contains(out, g+" forgotten by condensation") {
			t.Fatalf("the list title has no legend for the mark:\n%s", out)
		}
	}

	// Back before the condensation, the marks go.
	m, _ = press(t, m, "g")
	if strings.Contains(screen(m), g) {
		t.Fatalf("marks stay with the cursor before the condensation:\n%s", screen(m))
	}
}

func TestForgottenMarksInAGeneratedConversation(t *testing.T) {
	t.Parallel()
	log := tuitest.Generated(t, 3000, 1)
	cond := -1
	for i := 0; i < log.Len(); i++ {
		ev := log.Event(i)
		if c, ok := ev.Body.(*model.Condensation); ok && len(c.ForgottenIDs) > 0 {
			cond = i
			break
		}
	}
	if cond < 0 {
		t.Fatal("the generated conversation has no condensation")
	}
	m := newModel(Options{Log: log, Title: "generated"}, 160, 48)
	// Showing only messages and condensations, the window reaches back
	// from the condensation into what it forgot.
	m.filter = m.filter.toggled(kindMessage).toggled(kindCondense)
	m.moveTo(cond)
	g := m.styles.Glyphs.Forgotten
	out := screen(m)
	st := m.state()
	marked := 0
	for _, i := range m.visibleRows(m.layout().list.h - 1) {
		line := rowOf2(out, i)
		if line == "" {
			t.Fatalf("row %s is not on the screen:\n%s", tui.Ordinal(i), out)
		}
		got := strings.Contains(string([]rune(line)[:rowGutter]), g)
		if want := st.Forgotten(log.Event(i).ID); got != want {
			t.Fatalf("row %s: mark %v, want %v:\n%s", tui.Ordinal(i), got, want, out)
		}
		if got {
			marked++
		}
	}
	if marked == 0 {
		t.Fatalf("no forgotten row marked at the condensation %s:\n%s", tui.Ordinal(cond), out)
	}
}

// rowOf2 returns the line holding the list row of event i, "" when absent.
func rowOf2(out string, i int) string {
	want := tui.Ordinal(i) + " "
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, want) {
			return line
		}
	}
	return ""
}

func TestForgetIndexAgreesWithTheReducer(t *testing.T) {
	t.Parallel()
	evs := tuitest.GeneratedEvents(t, 4000, 11)
	log := reducer.NewLog(nil, 0)
	var f forgetIndex
	// The index grows with the log, as it does while a recording loads.
	for at := 0; at < len(evs); at += 700 {
		log.Append(evs[at:min(at+700, len(evs))]...)
		f.update(log)
	}
	var cursors []int
	for i := 0; i < log.Len(); i++ {
		if _, ok := log.Event(i).Body.(*model.Condensation); ok {
			cursors = append(cursors, i-1, i, i+1)
		}
	}
	if len(cursors) == 0 {
		t.Fatal("the generated conversation has no condensation")
	}
	cursors = append(cursors, 0, log.Len()-1)
	for _, c := range cursors {
		st := log.At(c)
		for i := 0; i < log.Len(); i++ {
			if got, want := f.forgottenAt(i, c), st.Forgotten(log.Event(i).ID); got != want {
				t.Fatalf("cursor %d, event %d: index says %v, reducer %v", c, i, got, want)
			}
		}
	}
}
