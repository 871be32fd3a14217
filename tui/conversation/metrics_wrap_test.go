package conversation

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"ohwatch/tui"
)

// gluedFigure matches a figure glued to its label or unit in a pane line.
var gluedFigure = regexp.MustCompile(`[^ \x{a0}]+(?:\x{a0}[^ \x{a0}]+)+`)

// TestMetricsPaneBreaksBetweenFigures: at every width the side panes are
// drawn at, a wrapped metrics line breaks between figures, never inside
// one: "write 18.6k", "69 calls" and "62k / 200k (31%)" each stay on one
// row (at 120×40 the cache line used to read "read 127k write" | "18.6k
// hit 87%").
func TestMetricsPaneBreaksBetweenFigures(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {160, 48}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			// At its end the demo has two usages (the agent's and the
			// condenser's), each a line of figures.
			log := demoLog(t, -1)
			m := newModel(Options{Log: log, Title: "demo", Source: "replay demo"}, size[0], size[1])
			m = jumpTo(t, m, tui.Ordinal(log.Len()-1))
			out := ansi.Strip(screen(m))
			if size[0] == 80 {
				// No side panes: the metrics are one summary line, whole.
				if !strings.Contains(out, "cost $") {
					t.Fatalf("no metrics line at 80 columns:\n%s", out)
				}
				return
			}
			if !strings.Contains(out, "Metrics") {
				t.Fatalf("no metrics pane:\n%s", out)
			}
			st := m.state()
			lines := metricsPane{metrics: st.Metrics, reported: st.MetricsReported(), styles: &m.styles}.lines()
			n := 0
			for _, line := range lines {
				for _, fig := range gluedFigure.FindAllString(ansi.Strip(line), -1) {
					n++
					if plain := strings.ReplaceAll(fig, nbsp, " "); !strings.Contains(out, plain) {
						t.Errorf("%q is split across rows:\n%s", plain, out)
					}
				}
			}
			if n < 11 {
				t.Fatalf("only %d glued figures in the metrics pane: %q", n, lines)
			}
			if strings.Contains(screen(m), nbsp) {
				t.Error("a non-breaking space reached the screen")
			}
		})
	}
}
