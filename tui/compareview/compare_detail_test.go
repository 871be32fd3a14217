package compareview

import (
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// bigOutputLog is a run of one terminal command whose output is size
// bytes of numbered lines, the last one line saying last.
func bigOutputLog(tb testing.TB, size int, last string) *reducer.Log {
	tb.Helper()
	var b strings.Builder
	for n := 0; b.Len() < size; n++ {
		b.WriteString("output line " + strconv.Itoa(n) + " of a long build log\n")
	}
	b.WriteString(last)
	return tuitest.FixtureLog(tb, tuitest.RawAction(1, "toolu_big", "r1", "make"), tuitest.RawObs(2, 1, "toolu_big", b.String(), 0))
}

// bigOutputCompare is the compare screen of two such runs, w×h, aligned.
func bigOutputCompare(tb testing.TB, size int) *Compare {
	tb.Helper()
	c := NewCompare(CompareOptions{
		A:       CompareSide{Title: "A", Log: bigOutputLog(tb, size, "done A"), Ended: true},
		B:       CompareSide{Title: "B", Log: bigOutputLog(tb, size, "done B"), Ended: true},
		NoColor: true,
		Profile: colorprofile.NoTTY,
	})
	c.SetSize(120, 40)
	alignNow(c)
	return c
}

// TestCompareDetailIsBuiltInACommand: enter on a row whose output is 4 MB
// shows the steps' names and "rendering…" at once, and does none of the
// decoding, sanitising and diffing in Update (it allocates a sliver of
// the output); the command it returns brings the diff to the screen.
func TestCompareDetailIsBuiltInACommand(t *testing.T) {
	c := bigOutputCompare(t, 4<<20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cmd := c.Update(tuitest.KeyMsg("enter"))
	runtime.ReadMemStats(&after)
	if cmd == nil {
		t.Fatal("enter asks for no detail")
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<10 {
		t.Errorf("enter's Update allocated %d bytes: it built the detail itself", grew)
	}
	out := c.View()
	if !strings.Contains(out, "rendering…") || !strings.Contains(out, "A  step 0") || strings.Contains(out, "done A") {
		t.Fatalf("before its command the detail shows:\n%s", out)
	}
	c.Update(cmd())
	pressCompare(c, "G")
	out = c.View()
	if strings.Contains(out, "rendering…") || !strings.Contains(out, "-done A") || !strings.Contains(out, "+done B") {
		t.Fatalf("the built detail is not shown:\n%s", out)
	}
}

// TestStaleCompareDetailsAreDropped: a detail built for an opening the
// user has left (closed, or another row opened) never replaces the one
// shown.
func TestStaleCompareDetailsAreDropped(t *testing.T) {
	c := compareFixture(t, 120, 40)
	list := c.View()
	first := c.Update(tuitest.KeyMsg("enter"))
	c.Update(tuitest.KeyMsg("esc"))
	if c.Update(first()); c.View() != list {
		t.Fatalf("a detail built after it was closed opened it again:\n%s", c.View())
	}
	first = c.Update(tuitest.KeyMsg("enter"))
	second := c.Update(tuitest.KeyMsg("]"))
	if first == nil || second == nil {
		t.Fatal("enter or ] asks for no detail")
	}
	c.Update(first())
	if !strings.Contains(c.View(), "rendering…") {
		t.Fatalf("the first row's detail replaced the second's request:\n%s", c.View())
	}
	c.Update(second())
	// The second row's detail, as a screen that opened only it draws it.
	want := compareFixture(t, 120, 40)
	pressCompare(want, "enter", "]")
	if c.View() != want.View() {
		t.Fatalf("the second row's detail is not shown:\n%s\nwant\n%s", c.View(), want.View())
	}
}

// BenchmarkCompareDetailKey is enter (open the detail) then esc on a row
// whose two outputs are 4 MB each: the key's Update alone, the frame's
// cost, with the build left to its command.
func BenchmarkCompareDetailKey(b *testing.B) {
	c := bigOutputCompare(b, 4<<20)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		c.Update(tuitest.KeyMsg("enter"))
		c.Update(tuitest.KeyMsg("esc"))
	}
}

// BenchmarkCompareDetailBuild is the command enter returns on the same
// row: the work taken off the key, done off the UI's goroutine.
func BenchmarkCompareDetailBuild(b *testing.B) {
	c := bigOutputCompare(b, 4<<20)
	cmd := c.Update(tuitest.KeyMsg("enter"))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		cmd()
	}
}
