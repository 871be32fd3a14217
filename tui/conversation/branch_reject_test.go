package conversation

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/demo"
	"ohwatch/gen"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// rejectedDemoLog is the demo recorded by a server that left the state
// updates after a rejection naming the rejected action (serve did, until
// it stamped them with HEAD as upstream does): the rejection and the idle
// status carry no parent_id, the branch's statuses name the action as
// their parent and its first step names the rejection. That leaves the
// action and the rejection as branch points, though nobody navigated;
// such recordings exist, and the header says what the branch is.
func rejectedDemoLog(t *testing.T) *reducer.Log {
	t.Helper()
	log := demoLog(t, 236)
	wait := log.Event(log.Len() - 1)
	pushID, branch := demo.Rejected()
	b := gen.NewBuilder(5, wait.Time, gen.DefaultEnvironment())
	reject := tuitest.Decode(t, b.UserReject(gen.Action{ID: pushID, ToolName: "terminal"}, "Rejected in ohwatch."))
	log.Append(reject, tuitest.Decode(t, b.Status(model.StatusIdle)))
	first := true
	for _, raw := range branch {
		ev := tuitest.Decode(t, raw)
		switch {
		case !first:
		case model.KindOf(&ev) != nil && model.KindOf(&ev).Artifact:
			ev.ParentID = pushID
		default:
			ev.ParentID, first = reject.ID, false
		}
		log.Append(ev)
	}
	if log.Linear() {
		t.Fatal("the rejected demo has no branch point")
	}
	return log
}

// TestGoldenRejectBranch: after a reject, the header says which action
// was rejected and that the run branches there, instead of a bare
// "HEAD's branch" beside ⑂ marks nobody made.
func TestGoldenRejectBranch(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			log := rejectedDemoLog(t)
			m := newModel(Options{Log: log, Title: "demo", Source: "replay demo"}, size[0], size[1])
			m = jumpTo(t, m, tui.Ordinal(log.Len()-1))
			out := screen(m)
			want := "⑂ #235 rejected: the next step branches there"
			if size[0] == 80 {
				want = "⑂ #235 rejected…" // the status line is full
			}
			if !strings.Contains(out, want) || strings.Contains(out, "HEAD's branch") {
				t.Errorf("the header does not explain the branch:\n%s", out)
			}
			tuitest.AssertScreenShape(t, out, size[0], size[1])
			golden.RequireEqual(t, out)
		})
	}
}
