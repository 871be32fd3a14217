package conversation

import (
	"strings"
	"testing"

	"ohwatch/tui/internal/tuitest"
)

// TestEnterAsksForTheInspectorsView: enter opens the inspector at once,
// saying "rendering…", and the view is built by the command Update
// returns, not in Update.
func TestEnterAsksForTheInspectorsView(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		m := newModel(Options{Log: tuitest.FixtureLog(t, strings.Split(bigMessage(t, 4<<10), "\x00")...)}, 120, 40)
		cmd := m.Update(tuitest.KeyMsg("enter"))
		if !m.insp.open || m.insp.data != nil || m.markdown.Renders() != 0 {
			t.Fatalf("enter built the view in Update: open %v, data %v, renders %d", m.insp.open, m.insp.data != nil, m.markdown.Renders())
		}
		if out := screen(m); !strings.Contains(out, "rendering…") {
			t.Fatalf("no rendering marker while the view is built:\n%s", out)
		}
		m = runCmd(t, m, cmd)
		if m.insp.data == nil || m.insp.data.md == nil || m.insp.data.md.lines == nil {
			t.Fatal("the command did not bring the view")
		}
		if out := screen(m); strings.Contains(out, "rendering…") || !strings.Contains(out, "Section") {
			t.Fatalf("the built view is not shown:\n%s", out)
		}
	})
}

// TestStaleInspectorBuildsAreDropped: a view built for an event the
// inspector has moved on from, or markdown rendered for a width it no
// longer has, never replaces the current one.
func TestStaleInspectorBuildsAreDropped(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		msg := bigMessage(t, 4<<10)
		other := strings.Replace(strings.Replace(msg, `"m1"`, `"m2"`, 1), "## Section", "## Other", -1)
		m := newModel(Options{Log: tuitest.FixtureLog(t, msg, other)}, 120, 40)
		m.Update(tuitest.KeyMsg("enter"))
		first := m.insp.build
		for _, k := range []string{"esc", "j", "enter"} {
			m.Update(tuitest.KeyMsg(k))
		}
		second := m.insp.build
		if first == nil || second == nil || first == second || m.insp.index != 1 {
			t.Fatal("opening the inspector on the next event asked for no new view")
		}
		m.Update(first.run())
		if m.insp.data != nil {
			t.Fatal("the first event's view replaced the second's request")
		}
		m.Update(second.run())
		if m.insp.data == nil || !strings.Contains(screen(m), "Other") {
			t.Fatalf("the second event's view is not shown:\n%s", screen(m))
		}

		// Two resizes in a row: the rendering for the first width comes last
		// and is dropped; the one for the current width is kept.
		narrow := m.Update(tuitest.WindowSize(90, 30))
		wide := m.Update(tuitest.WindowSize(100, 30))
		m = runCmd(t, m, wide)
		kept := m.insp.data.md.lines
		if m.insp.data.md.width != m.layout().list.w {
			t.Fatalf("markdown for width %d, list %d", m.insp.data.md.width, m.layout().list.w)
		}
		m = runCmd(t, m, narrow)
		if m.insp.data.md.width != m.layout().list.w || &m.insp.data.md.lines[0] != &kept[0] {
			t.Fatal("a rendering for an earlier width replaced the current one")
		}
	})
}
