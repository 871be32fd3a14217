package conversation

import (
	"strings"
	"testing"

	"ohwatch/tui"
	"ohwatch/tui/dialog"
	"ohwatch/tui/internal/tuitest"
)

// TestPanesKeepTheContract builds every pane of a live conversation
// waiting for confirmation (so the banners and the pending pane have
// something to say) and draws each at sizes from one cell up: each draws
// exactly the rectangle it was given, and names keys for the help bar
// exactly when it can have focus.
func TestPanesKeepTheContract(t *testing.T) {
	t.Parallel()
	m := liveModel(t, tuitest.WaitingLog(t), 160, 48, Options{Title: "t", Controls: &tuitest.Controls{}})
	st := m.state()
	active := m.activeKeys(st)
	k := &active
	m.attn = attention{status: "waiting_for_confirmation"}
	insp := newModel(Options{Log: tuitest.ErrorLog(t)}, 160, 48)
	insp, _ = press(t, insp, "]", "enter")
	// The dialogs are drawn as panes are: the test takes them off the
	// overlay to draw them at every size.
	opened := newModel(Options{Log: tuitest.ErrorLog(t)}, 160, 48)
	opened.openPicker()
	picker, _ := dialog.As[*kindPicker](&opened.overlay)
	opened.overlay.Close(pickerID)
	opened.openHelp()
	help, _ := dialog.As[*tui.Help](&opened.overlay)
	panes := []struct {
		name      string
		pane      Pane
		focusable bool
	}{
		{"header", m.headerOf(st), false},
		{"banner", m.bannerOf(), false},
		{"list", m.listOf(20, k), true},
		{"inspector", insp.mainPane(&insp.keys, 20), true},
		{"picker", picker, true},
		{"help", help, true},
		{"timeline", m.sidePane(st, k, paneTimeline, 40, 10), true},
		{"metrics", m.sidePane(st, k, paneMetrics, 40, 10), true},
		{"tasks", m.sidePane(st, k, paneTasks, 40, 10), true},
		{"pending", m.sidePane(st, k, panePending, 40, 10), true},
		{"strip", m.stripOf(st), false},
		{"scrubber", m.scrubberOf(), false},
		{"footer", m.footerOf(st), false},
	}
	for _, p := range panes {
		if got := len(p.pane.ShortHelp()) > 0; got != p.focusable {
			t.Errorf("%s: keys for the help bar %v, want %v", p.name, got, p.focusable)
		}
		for _, size := range [][2]int{{1, 1}, {20, 3}, {80, 5}, {160, 12}} {
			w, h := size[0], size[1]
			out := draw(p.pane, w, h)
			lines := strings.Split(out, "\n")
			if len(lines) != h {
				t.Errorf("%s at %dx%d: %d lines", p.name, w, h, len(lines))
				continue
			}
			for i, l := range lines {
				if m.Cells.Width(l) != w {
					t.Errorf("%s at %dx%d: line %d is %d cells: %q", p.name, w, h, i, m.Cells.Width(l), l)
					break
				}
			}
		}
	}
}

// TestModelNameIsNotSplit: the metrics pane names the model without its
// routing prefix, so the name is not cut at a hyphen onto a second row.
func TestModelNameIsNotSplit(t *testing.T) {
	t.Parallel()
	if got := shortModel("litellm_proxy/anthropic/claude-sonnet-4-5-20250929"); got != "claude-sonnet-4-5-20250929" {
		t.Fatalf("shortModel: %q", got)
	}
	if got := shortModel("gpt-5"); got != "gpt-5" {
		t.Fatalf("shortModel of a bare name: %q", got)
	}
	m := newModel(Options{Log: demoLog(t, -1)}, 120, 40)
	m, _ = press(t, m, "G")
	if out := screen(m); !strings.Contains(out, "claude-sonnet-4-5-20250929") {
		t.Fatalf("the model name is split at 120x40:\n%s", out)
	}
}
