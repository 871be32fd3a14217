package conversation

import (
	"slices"
	"strings"
	"testing"

	"ohwatch/model"
	"ohwatch/tui/internal/tuitest"
)

// exitFailures are the events of evs that exit:!0 keeps, read directly.
func exitFailures(m *Conversation) []int {
	var out []int
	for i := range m.Log.Len() {
		ev := m.Log.Event(i)
		if o, ok := ev.Body.(*model.Observation); ok && o.ExitCode != nil && *o.ExitCode != 0 {
			out = append(out, i)
		}
	}
	return out
}

// TestNarrowingReadsALongLogInCommands: the enter that puts a narrowing in
// force over a log longer than a frame may read returns at once, having
// read no event (the counter of events read in Update says so, not a
// clock), its title saying how far the reading got; the command it
// returns reads the log and keeps exactly what a direct read keeps. The
// events a batch brings afterwards are read in Update, no more than
// they are.
func TestNarrowingReadsALongLogInCommands(t *testing.T) {
	t.Parallel()
	const n = 3*inlineScanMax + 100
	m := newModel(Options{Log: benchLog(t, n)}, 120, 40)
	m.moveTo(n / 2)
	m, _ = press(t, m, "|")
	typeText(t, m, "exit:!0")
	m, cmd := press(t, m, "enter")
	// The events read in Update are counted inside the narrowing: the
	// screen cannot say which goroutine read them, so the test reads the
	// model's own count.
	nw := m.narrow.cur
	if nw == nil || cmd == nil {
		t.Fatalf("enter put no narrowing in force (%v) or returned no command", nw)
	}
	if nw.readInline != 0 || nw.scanned != 0 || !nw.running {
		t.Fatalf("Update read %d events (scanned %d, running %v), want none", nw.readInline, nw.scanned, nw.running)
	}
	if title := strings.SplitN(screen(m), "\n", 4)[2]; !strings.Contains(title, "| exit:!0… 0%") {
		t.Errorf("the list's title does not say the narrowing is reading: %q", title)
	}
	finishNarrowing(t, m, cmd)
	want := exitFailures(m)
	if len(want) == 0 {
		t.Fatal("the generated log has no failed command to keep")
	}
	if !slices.Equal(nw.kept, want) || nw.running || nw.scanned != n {
		t.Fatalf("the commands kept %d events (running %v, scanned %d), want %d", len(nw.kept), nw.running, nw.scanned, len(want))
	}
	if nw.readInline != 0 {
		t.Errorf("Update read %d events while the commands ran", nw.readInline)
	}
	if !slices.Contains(want, m.cursor) {
		t.Errorf("the cursor is on #%d, which the narrowing hides, once the log is read", m.cursor)
	}
	if title := strings.SplitN(screen(m), "\n", 4)[2]; strings.Contains(title, "%") {
		t.Errorf("the title still says the narrowing is reading: %q", title)
	}

	batch := tuitest.GeneratedEvents(t, 40, 77)
	m, _ = send(m, BatchMsg{Batch: model.Batch{Events: batch}})
	if added := m.Log.Len() - n; nw.readInline != added || nw.scanned != m.Log.Len() {
		t.Errorf("a batch of %d new events had %d read in Update (scanned %d of %d)", added, nw.readInline, nw.scanned, m.Log.Len())
	}
}

// TestNarrowingReplacedIsCancelled: a narrowing replaced while its
// commands run stops reading, and what its command reports is dropped.
func TestNarrowingReplacedIsCancelled(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: benchLog(t, 2*inlineScanMax)}, 120, 40)
	old := m.setNarrowing("exit:!0")
	// Whether the replaced narrowing was cancelled shows in its own
	// context only: the test holds the narrowing to look.
	first := m.narrow.cur
	next := m.setNarrowing("tool:terminal")
	if first.ctx.Err() == nil {
		t.Fatal("the replaced narrowing is not cancelled")
	}
	msg := old().(narrowProgressMsg)
	if !msg.cancelled {
		t.Error("the replaced narrowing's command read on")
	}
	if cmd := m.Update(msg); cmd != nil || m.narrow.cur.scanned != 0 {
		t.Errorf("the replaced narrowing's report was kept (scanned %d)", m.narrow.cur.scanned)
	}
	finishNarrowing(t, m, next)
	if m.narrow.cur.running || m.narrow.cur.scanned != m.Log.Len() {
		t.Errorf("the narrowing in force did not finish: %+v", m.narrow.cur)
	}
}
