package conversation

import (
	"strings"
	"testing"
)

// TestHelpIsCompactWhenNarrow: at 80 columns the monitor's help is two
// columns side by side, as the fleet's is, not one long column.
func TestHelpIsCompactWhenNarrow(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: demoLog(t, 40)}, 80, 24)
	m, _ = press(t, m, "?")
	out := screen(m)
	if row := lineWith(out, "next event"); !strings.Contains(row, "  accept pending") && strings.Count(row, "  ") < 4 {
		t.Fatalf("the help is one column at 80x24:\n%s", out)
	}
	first := lineWith(out, "Move")
	if strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(first), "Move")) == "" {
		t.Fatalf("no second column beside Move:\n%s", out)
	}
}
