package conversation

import (
	"regexp"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/tui/internal/tuitest"
)

// TestHighRiskActionsAreMarkedInTheList: in the real confirmation_mode
// recording the second of three identical actions was sent at HIGH risk;
// its row says so in words (the list is read without colour too), the
// others do not.
func TestHighRiskActionsAreMarkedInTheList(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Recorded(t, fixtures.Confirm)}, 120, 24)
	rows := regexp.MustCompile(`(?m)^.*Action .*$`).FindAllString(screen(m), -1)
	if len(rows) != 3 {
		t.Fatalf("want 3 action rows, got %d:\n%s", len(rows), screen(m))
	}
	for k, row := range rows {
		marked := regexp.MustCompile(`Action\s+HIGH `).MatchString(row)
		if marked != (k == 1) {
			t.Errorf("action row %d marked HIGH = %v:\n%s", k, marked, row)
		}
	}
}
