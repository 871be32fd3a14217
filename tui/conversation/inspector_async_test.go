package conversation

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"ohwatch/tui/internal/tuitest"
)

// holdInspectorWork has d keep the inspector's commands (the build of its
// view, a rendering of its markdown) instead of running them, as a busy
// runtime would run them later; the returned slice lists them in the
// order they were asked for, for the test to run when and in what order
// it chooses.
func holdInspectorWork(d *tuitest.Driver) *[]tea.Cmd {
	held := new([]tea.Cmd)
	waits := d.Waits
	d.Waits = func(cmd tea.Cmd) bool {
		if name := tuitest.FuncOf(cmd); strings.Contains(name, "(*inspectJob).run") || strings.Contains(name, "refreshMarkdown") {
			*held = append(*held, cmd)
			return true
		}
		return waits(cmd)
	}
	return held
}

// TestEnterAsksForTheInspectorsView: enter opens the inspector at once,
// saying "rendering…", and the view is built by the command Update
// returns, not in Update.
func TestEnterAsksForTheInspectorsView(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		d := drive(t, Options{Log: tuitest.FixtureLog(t, strings.Split(bigMessage(t, 4<<10), "\x00")...)}, 120, 40)
		held := holdInspectorWork(d)
		d.Press("enter").Shows("▌ Inspect #1", "rendering…").Hides("Section")
		if len(*held) != 1 {
			t.Fatalf("enter asked for %d builds, want 1", len(*held))
		}
		d.Send((*held)[0]()).Shows("Section").Hides("rendering…")
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
		d := drive(t, Options{Log: tuitest.FixtureLog(t, msg, other)}, 120, 40)
		held := holdInspectorWork(d)
		d.Press("enter", "esc", "j", "enter").Shows("▌ Inspect #2", "rendering…")
		if len(*held) != 2 {
			t.Fatalf("opening the inspector on the next event asked for %d builds, want 2", len(*held))
		}
		first, second := (*held)[0], (*held)[1]
		d.Send(first()).Shows("rendering…").Hides("Section")
		d.Send(second()).Shows("Other").Hides("rendering…")

		// Two resizes in a row: the rendering for the first width comes last
		// and is dropped; the one for the current width is kept.
		*held = nil
		d.Send(tuitest.WindowSize(90, 30)).Send(tuitest.WindowSize(100, 30))
		if len(*held) != 2 {
			t.Fatalf("two resizes asked for %d renderings, want 2", len(*held))
		}
		narrow, wide := (*held)[0], (*held)[1]
		d.Send(wide())
		kept := d.Screen()
		// The table drawn as a table: rendered, not the plain text.
		if !strings.Contains(kept, "---|---") || strings.Contains(kept, "|---|") {
			t.Fatalf("the rendering for the current width is not shown:\n%s", kept)
		}
		if d.Send(narrow()); d.Screen() != kept {
			t.Fatalf("a rendering for an earlier width replaced the current one:\n%s\nwas:\n%s", d.Screen(), kept)
		}
	})
}
