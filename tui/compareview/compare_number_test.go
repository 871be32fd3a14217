package compareview

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/client/files"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestCompareNumbersEventsAsTheViewDoes: on a branched conversation, HEAD's
// path skips the log's other branch, so the event at its end is numbered
// past the path's length. compare names it as the conversation's view
// does (":N" finds it) and says its place on the path apart: never
// "event 599 of 579".
func TestCompareNumbersEventsAsTheViewDoes(t *testing.T) {
	t.Parallel()
	conv, err := files.Load("../../testdata/branches")
	if err != nil {
		t.Fatal(err)
	}
	log := reducer.NewLog(conv.Base, conv.EventFiles)
	log.Append(conv.Events...)
	path := log.HeadPath()
	if path.Tip() < path.Len() {
		t.Fatalf("HEAD's path (%d events, tip #%d) skips nothing: no case", path.Len(), path.Tip()+1)
	}
	c := NewCompare(CompareOptions{
		A:       CompareSide{Title: "branched", Log: log, Ended: true},
		B:       CompareSide{Title: "again", Log: log, Ended: true},
		NoColor: true, Profile: colorprofile.NoTTY,
	})
	c.SetSize(200, 50)
	alignNow(c)
	c.Update(tuitest.KeyMsg("G"))
	out := c.View()
	want := tui.Ordinal(path.Tip()) + " (" + strconv.Itoa(path.Len()) + "/" + strconv.Itoa(path.Len()) + " on its branch)"
	if !strings.Contains(out, "A ") || !strings.Contains(out, want) {
		t.Fatalf("compare's last row does not say %q:\n%s", want, out)
	}
	for _, m := range regexp.MustCompile(`#(\d+) of (\d+)`).FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		of, _ := strconv.Atoi(m[2])
		if n > of {
			t.Fatalf("compare says %q", m[0])
		}
	}
}
