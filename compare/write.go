package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"ohwatch/format"
	"ohwatch/internal/sanitize"
)

// WriteJSON writes the report as one indented JSON object.
func WriteJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// figure is one line of the side-by-side table: its name and each side's
// value.
type figure struct{ name, a, b string }

// figures are the table both the text and the markdown report print.
func figures(r Report) []figure {
	tok := func(s SideReport, n int64) string { return format.Tokens(n, s.MetricsReported) }
	return []figure{
		{"status", r.A.Verdict, r.B.Verdict},
		{"duration", r.A.Duration, r.B.Duration},
		{"cost", r.A.Cost, r.B.Cost},
		{"prompt tokens", tok(r.A, r.A.Tokens.Prompt), tok(r.B, r.B.Tokens.Prompt)},
		{"completion tokens", tok(r.A, r.A.Tokens.Completion), tok(r.B, r.B.Tokens.Completion)},
		{"cache read tokens", tok(r.A, r.A.Tokens.CacheRead), tok(r.B, r.B.Tokens.CacheRead)},
		{"cache write tokens", tok(r.A, r.A.Tokens.CacheWrite), tok(r.B, r.B.Tokens.CacheWrite)},
		{"LLM calls", format.Int(r.A.LLMCalls, r.A.MetricsReported), format.Int(r.B.LLMCalls, r.B.MetricsReported)},
		{"steps", strconv.Itoa(r.A.Steps), strconv.Itoa(r.B.Steps)},
		{"errors", strconv.Itoa(r.A.Errors), strconv.Itoa(r.B.Errors)},
		{"events", strconv.Itoa(r.A.Events), strconv.Itoa(r.B.Events)},
		{"tool calls", toolCalls(r.A.ToolCalls), toolCalls(r.B.ToolCalls)},
		{"files edited", strconv.Itoa(len(r.A.FilesEdited)), strconv.Itoa(len(r.B.FilesEdited))},
	}
}

// toolCalls words the calls per tool, most used first.
func toolCalls(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.SortFunc(names, func(x, y string) int {
		if m[x] != m[y] {
			return m[y] - m[x]
		}
		return strings.Compare(x, y)
	})
	parts := make([]string, len(names))
	for k, n := range names {
		parts[k] = fmt.Sprintf("%s %d", n, m[n])
	}
	return strings.Join(parts, ", ")
}

// countsLine is the counts of the alignment in one line.
func countsLine(c Counts) string {
	return fmt.Sprintf("same %d · changed %d · only in A %d · only in B %d", c.Same, c.Changed, c.OnlyA, c.OnlyB)
}

// stepLine names a step on one line.
func stepLine(s *StepReport) string {
	if s == nil {
		return "(no differing step)"
	}
	if s.Kind != "action" {
		return fmt.Sprintf("step %d (%s): %s", s.Step, format.Event(s.Event), s.Summary)
	}
	what := "action " + s.Tool
	if s.Outcome != "" && s.Outcome != "ok" {
		what += " (" + s.Outcome + ")"
	}
	return fmt.Sprintf("step %d (%s): %s: %s", s.Step, format.Event(s.Event), what, s.Summary)
}

// sharedLine says what the runs share.
func sharedLine(r Report) string {
	if r.SharedUntilEventID == nil {
		return "no event in common"
	}
	return "shared until event " + *r.SharedUntilEventID
}

// WriteText writes the report for a reader at a terminal or a pipe.
func WriteText(w io.Writer, r Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "A: %s (%s)\nB: %s (%s)\n", r.A.Title, r.A.Source, r.B.Title, r.B.Source)
	fmt.Fprintf(&b, "%s; %s\n", sharedLine(r), countsLine(r.Counts))
	if r.FirstDivergence == nil {
		b.WriteString("the runs do not differ\n")
	} else {
		fmt.Fprintf(&b, "first divergence at row %d:\n  A %s\n  B %s\n", r.FirstDivergence.Row, stepLine(r.FirstDivergence.A), stepLine(r.FirstDivergence.B))
	}
	b.WriteString("\n")
	width := 0
	for _, f := range figures(r) {
		width = max(width, len(f.name))
	}
	colA := len("A")
	for _, f := range figures(r) {
		colA = max(colA, len(f.a))
	}
	fmt.Fprintf(&b, "%-*s  %-*s  %s\n", width, "", colA, "A", "B")
	for _, f := range figures(r) {
		fmt.Fprintf(&b, "%-*s  %-*s  %s\n", width, f.name, colA, f.a, f.b)
	}
	if len(r.Deltas) > 0 {
		fmt.Fprintf(&b, "\n%s\n", strings.Join(r.Deltas, "; "))
	}
	for _, s := range []SideReport{r.A, r.B} {
		if s.FinalMessage != "" {
			fmt.Fprintf(&b, "\n%s's final message: %s\n", s.Name, firstLine(s.FinalMessage))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// firstLine is the first line of s, marked when more follows.
func firstLine(s string) string {
	if k := strings.IndexByte(s, '\n'); k >= 0 {
		return s[:k] + " …"
	}
	return s
}

// WriteMarkdown writes the report as markdown, for a pull request or a
// notebook.
func WriteMarkdown(w io.Writer, r Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Comparison: %s vs %s\n\n", mdText(r.A.Title), mdText(r.B.Title))
	fmt.Fprintf(&b, "- **A**: %s (`%s`)\n- **B**: %s (`%s`)\n", mdText(r.A.Title), mdCode(r.A.Source), mdText(r.B.Title), mdCode(r.B.Source))
	shared := "none"
	if r.SharedUntilEventID != nil {
		shared = "`" + mdCode(*r.SharedUntilEventID) + "`"
	}
	fmt.Fprintf(&b, "- **Shared until event**: %s\n- **Steps**: %s\n", shared, countsLine(r.Counts))
	if r.FirstDivergence == nil {
		b.WriteString("- **First divergence**: none, the runs do not differ\n")
	} else {
		fmt.Fprintf(&b, "- **First divergence** (row %d):\n  - A: %s\n  - B: %s\n", r.FirstDivergence.Row, mdText(stepLine(r.FirstDivergence.A)), mdText(stepLine(r.FirstDivergence.B)))
	}
	b.WriteString("\n| | A | B |\n|---|---|---|\n")
	for _, f := range figures(r) {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", f.name, mdCell(f.a), mdCell(f.b))
	}
	if len(r.Deltas) > 0 {
		b.WriteString("\n")
		for _, d := range r.Deltas {
			fmt.Fprintf(&b, "- %s\n", d)
		}
	}
	for _, s := range []SideReport{r.A, r.B} {
		if len(s.FilesEdited) > 0 {
			fmt.Fprintf(&b, "\n**Files edited by %s**: %s\n", s.Name, mdText(strings.Join(s.FilesEdited, ", ")))
		}
	}
	for _, s := range []SideReport{r.A, r.B} {
		if s.FinalMessage != "" {
			fmt.Fprintf(&b, "\n**%s's final message**\n\n> %s\n", s.Name, strings.ReplaceAll(mdText(s.FinalMessage), "\n", "\n> "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdText keeps text from a run from being read as markup: it is
// sanitised and the characters markdown acts on are escaped.
func mdText(s string) string {
	s = sanitize.Text(s)
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|#", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCell is mdText on one line, for a table cell.
func mdCell(s string) string { return strings.ReplaceAll(mdText(s), "\n", " ") }

// mdCode keeps a code span closed.
func mdCode(s string) string { return strings.ReplaceAll(sanitize.Line(s), "`", "'") }
