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
	"ohwatch/internal/sanitize"
	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui"
)

// compareDetail is the two steps of one row opened (enter): each side's
// step named, then the unified diff of their arguments (or texts) and of
// their outputs, A before B. Decoding a step's event, finding its result,
// indenting and sanitising a whole output and diffing the two take far
// longer than a frame on a large output: they are done in a command
// (detailJob) while the detail says "rendering…", never in Update or
// View. The lines do not depend on the width: a resize keeps them.
type compareDetail struct {
	row   int
	lines []string
	top   int
	// seq tells the build for this opening from those for earlier ones.
	seq int
}

// detailJob is what building a row's detail needs, taken in Update:
// values and logs that are safe to read while Update goes on.
type detailJob struct {
	to     tui.Addr
	seq    int
	styles theme.Styles
	runs   [2]*compare.Run
	steps  [2]*compare.Step
	heads  [2]string
}

// compareDetailMsg carries a row's detail, built by a detailJob.
type compareDetailMsg struct {
	tui.Addr
	seq   int
	lines []string
}

// openDetail opens row's two steps: their names at once, the rest built
// by the command it returns.
func (c *Compare) openDetail(row int) tea.Cmd {
	c.detailSeq++
	job := detailJob{to: c.Addr(), seq: c.detailSeq, styles: c.styles, runs: [2]*compare.Run{c.runA, c.RunB}}
	r := c.Cmp.Rows[row]
	for side, k := range [2]int{r.A, r.B} {
		steps, name := c.Cmp.StepsA, "A"
		if side == 1 {
			steps, name = c.Cmp.StepsB, "B"
		}
		if k < 0 {
			job.heads[side] = name + "  (no step here)"
			continue
		}
		st := steps[k]
		head := name + "  step " + strconv.Itoa(k) + " · event " + strconv.Itoa(st.Event) + " · " + st.Kind.String()
		if st.Kind == compare.Action {
			head += " " + sanitize.Line(st.Tool) + " · " + st.Outcome.String()
		}
		job.heads[side], job.steps[side] = head, &st
	}
	s := c.styles
	c.detail = &compareDetail{row: row, seq: job.seq,
		lines: []string{s.Bold.Render(job.heads[0]), s.Bold.Render(job.heads[1]), "", s.Muted.Render("rendering…")}}
	return job.run
}

// run builds the detail's lines.
func (j detailJob) run() tea.Msg {
	var args, output [2]string
	for side, st := range j.steps {
		if st != nil {
			args[side], output[side] = stepTexts(j.runs[side], *st)
		}
	}
	s := j.styles
	out := []string{s.Bold.Render(j.heads[0]), s.Bold.Render(j.heads[1]), ""}
	out = append(out, s.PaneFocus.Render("Arguments"))
	out = append(out, diffLines(s, args[0], args[1])...)
	out = append(out, "", s.PaneFocus.Render("Output"))
	out = append(out, diffLines(s, output[0], output[1])...)
	return compareDetailMsg{Addr: j.to, seq: j.seq, lines: out}
}

// detailBuilt shows a built detail when it is of the detail still open;
// one for a row the user has left (closed, or moved on with ] or [) is
// dropped.
func (c *Compare) detailBuilt(msg compareDetailMsg) {
	d := c.detail
	if d == nil || msg.seq != d.seq {
		return
	}
	d.lines = msg.lines
	d.top = min(d.top, max(len(d.lines)-1, 0))
}

// stepTexts are what a step says: an action's arguments (indented JSON)
// and its result's output; a message's text.
func stepTexts(run *compare.Run, st compare.Step) (args, output string) {
	ev := run.Log.Event(st.Event)
	detail, _ := ev.Detail()
	switch d := detail.(type) {
	case *model.MessageEvent:
		return sanitize.Text(d.Text()), ""
	case *model.ActionEvent:
		var b bytes.Buffer
		if json.Indent(&b, d.RawAction, "", "  ") == nil {
			args = sanitize.Text(b.String())
		}
		return args, resultOf(run, st.Event)
	}
	return ev.Summary, ""
}

// resultOf is the output of the result of the action at index i, the
// one the log files for it (reducer.Log.ResultOf).
func resultOf(run *compare.Run, i int) string {
	r, ok := run.Log.ResultOf(i)
	if !ok {
		return ""
	}
	ev := run.Log.Event(r)
	switch b := ev.Body.(type) {
	case *model.AgentError:
		return "error: " + b.Error
	case *model.UserReject:
		return "rejected: " + b.Reason
	}
	if d, _ := ev.Detail(); d != nil {
		if o, ok := d.(*model.ObservationEvent); ok {
			return sanitize.Text(o.Output())
		}
	}
	return ev.Summary
}

// diffLines is the unified diff of a and b, coloured by line; "the
// same" with the text once when they do not differ.
func diffLines(s theme.Styles, a, b string) []string {
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
		out = append(out, c.Cells.Fit(d.lines[i], w))
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
		c.openHelp()
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
		return c.openDetail(c.Cursor)
	}
	d.top = max(min(d.top, len(d.lines)-1), 0)
	return nil
}
