package compareview

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/aymanbagabas/go-udiff"

	"ohwatch/compare"
	"ohwatch/model"
	"ohwatch/tui"
)

// compareDetail is the two steps of one row opened (enter): each side's
// step named, then the unified diff of their arguments (or texts) and of
// their outputs, A before B. The lines are built once when it opens and
// again on a resize, never in View.
type compareDetail struct {
	row   int
	lines []string
	top   int
	// a and b are what is diffed, kept for a resize.
	heads        [2]string
	args, output [2]string
}

// observationReach bounds how far after an action its result is looked
// for.
const observationReach = 2000

// newCompareDetail opens row's two steps.
func newCompareDetail(c *Compare, row int) *compareDetail {
	d := &compareDetail{row: row}
	r := c.Cmp.Rows[row]
	for side, k := range [2]int{r.A, r.B} {
		run, steps, name := c.runA, c.Cmp.StepsA, "A"
		if side == 1 {
			run, steps, name = c.RunB, c.Cmp.StepsB, "B"
		}
		if k < 0 {
			d.heads[side] = name + "  (no step here)"
			continue
		}
		st := steps[k]
		head := name + "  step " + strconv.Itoa(k) + " · event " + strconv.Itoa(st.Event) + " · " + st.Kind.String()
		if st.Kind == compare.Action {
			head += " " + model.SanitizeLine(st.Tool) + " · " + st.Outcome.String()
		}
		d.heads[side] = head
		d.args[side], d.output[side] = stepTexts(run, st)
	}
	d.layout(c, c.width)
	return d
}

// stepTexts are what a step says: an action's arguments (indented JSON)
// and its result's output; a message's text.
func stepTexts(run *compare.Run, st compare.Step) (args, output string) {
	ev := run.Log.Event(st.Event)
	detail, _ := ev.Detail()
	switch d := detail.(type) {
	case *model.MessageEvent:
		return model.Sanitize(d.Text()), ""
	case *model.ActionEvent:
		var b bytes.Buffer
		if json.Indent(&b, d.RawAction, "", "  ") == nil {
			args = model.Sanitize(b.String())
		}
		return args, resultOf(run, st.Event, d.ToolCallID, ev.ID)
	}
	return ev.Summary, ""
}

// resultOf is the output of the result of the action at index i (tool
// call call, event id), looked for in the events after it.
func resultOf(run *compare.Run, i int, call, id string) string {
	log := run.Log
	for j := i + 1; j < log.Len() && j <= i+observationReach; j++ {
		ev := log.Event(j)
		switch b := ev.Body.(type) {
		case *model.Observation:
			if (call != "" && b.ToolCallID == call) || (id != "" && b.ActionID == id) {
				if d, _ := ev.Detail(); d != nil {
					if o, ok := d.(*model.ObservationEvent); ok {
						return model.Sanitize(o.Output())
					}
				}
				return ev.Summary
			}
		case *model.AgentError:
			if call != "" && b.ToolCallID == call {
				return "error: " + b.Error
			}
		case *model.UserReject:
			if (call != "" && b.ToolCallID == call) || (id != "" && b.ActionID == id) {
				return "rejected: " + b.Reason
			}
		}
	}
	return ""
}

// layout builds the lines for width w.
func (d *compareDetail) layout(c *Compare, w int) {
	s := c.styles
	out := []string{s.Bold.Render(d.heads[0]), s.Bold.Render(d.heads[1]), ""}
	out = append(out, s.PaneFocus.Render("Arguments"))
	out = append(out, diffLines(c, d.args[0], d.args[1])...)
	out = append(out, "", s.PaneFocus.Render("Output"))
	out = append(out, diffLines(c, d.output[0], d.output[1])...)
	d.lines = out
	d.top = min(d.top, max(len(d.lines)-1, 0))
}

// diffLines is the unified diff of a and b, coloured by line; "the
// same" with the text once when they do not differ.
func diffLines(c *Compare, a, b string) []string {
	s := c.styles
	if a == b {
		if a == "" {
			return []string{s.Muted.Render("(none on either side)")}
		}
		out := []string{s.Muted.Render("(the same on both sides)")}
		return append(out, tui.CapLines(strings.Split(strings.TrimSuffix(tui.ExpandTabs(a), "\n"), "\n"))...)
	}
	diff := udiff.Unified("A", "B", tui.WithNewline(a), tui.WithNewline(b))
	var out []string
	for _, line := range tui.CapLines(strings.Split(strings.TrimSuffix(diff, "\n"), "\n")) {
		line = tui.ExpandTabs(line)
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
			out = append(out, s.Bold.Render(line))
		case strings.HasPrefix(line, "+"):
			out = append(out, s.DiffAdd.Render(line))
		case strings.HasPrefix(line, "-"):
			out = append(out, s.DiffDel.Render(line))
		case strings.HasPrefix(line, "@@"):
			out = append(out, s.DiffHunk.Render(line))
		default:
			out = append(out, line)
		}
	}
	return out
}

// view is h lines of the detail from its scroll position.
func (d *compareDetail) view(c *Compare, w, h int) []string {
	out := make([]string, 0, h)
	for i := d.top; i < len(d.lines) && len(out) < h; i++ {
		out = append(out, c.cells.Fit(d.lines[i], w))
	}
	return out
}

// detailKey answers a key while the detail is open.
func (c *Compare) detailKey(msg tea.KeyPressMsg) tea.Cmd {
	k, d := c.keys, c.detail
	page := max(c.height-4, 1)
	switch {
	case key.Matches(msg, k.Back, k.Open):
		c.detail = nil
	case key.Matches(msg, k.Quit):
		c.detail = nil
	case key.Matches(msg, k.Help):
		c.showHelp = true
	case key.Matches(msg, k.Down):
		d.top++
	case key.Matches(msg, k.Up):
		d.top--
	case key.Matches(msg, k.PageDown):
		d.top += page
	case key.Matches(msg, k.PageUp):
		d.top -= page
	case key.Matches(msg, k.Top):
		d.top = 0
	case key.Matches(msg, k.Bottom):
		d.top = len(d.lines) - page
	case key.Matches(msg, k.NextDiff), key.Matches(msg, k.PrevDiff):
		// Move to the next difference and open it: reading a run's
		// differences one after the other.
		c.detail = nil
		c.jumpDiff(key.Matches(msg, k.NextDiff))
		c.detail = newCompareDetail(c, c.Cursor)
		return nil
	}
	d.top = max(min(d.top, len(d.lines)-1), 0)
	return nil
}
