package conversation

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ohwatch/tui"
)

// The helpers below read what the screen shows, for tests that drive the
// view from outside.

// cursorRe reads the events pane's title: "Events · #12/300".
var cursorRe = regexp.MustCompile(`Events · (#\d+)/(\d+)`)

// cursorOn is the event the list's cursor is on, as the events pane's
// title names it ("#12"); "" when the title names none.
func cursorOn(screen string) string {
	if m := cursorRe.FindStringSubmatch(screen); m != nil {
		return m[1]
	}
	return ""
}

// selectedRow is the list's row marked ▶ (the cursor's), "" when none is.
func selectedRow(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "▶") {
			return l
		}
	}
	return ""
}

// mustCursorOn fails the test unless the cursor is on event want.
func mustCursorOn(t *testing.T, screen, want string) {
	t.Helper()
	if got := cursorOn(screen); got != want {
		t.Fatalf("the cursor is on %q, want %q:\n%s", got, want, screen)
	}
}

// cursorIndex is the index of the event the cursor is on, read from the
// events pane's title; it fails the test when the title names none.
func cursorIndex(t *testing.T, screen string) int {
	t.Helper()
	on := cursorOn(screen)
	n, err := strconv.Atoi(strings.TrimPrefix(on, "#"))
	if err != nil || tui.Ordinal(n-1) != on {
		t.Fatalf("no event under the cursor in the title:\n%s", screen)
	}
	return n - 1
}
