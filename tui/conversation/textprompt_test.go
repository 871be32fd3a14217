package conversation

import (
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/tui/internal/tuitest"
)

func TestLongPromptKeepsTheCursorOnScreen(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Recorded(t, fixtures.Confirm)}, 80, 24)
	m, _ = press(t, m, ":")
	m = typeText(t, m, strings.Repeat("9", 150))
	lines := strings.Split(screen(m), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, "9█") || !strings.Contains(last, "…") {
		t.Fatalf("a long prompt hides its end:\n%s", last)
	}
}
