package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// header is the table's first line; stampPrefix begins the line above
// it that says when, where and on what the last run measured.
const (
	header      = "| figure | target | measured | command |"
	separator   = "|---|---|---|---|"
	stampPrefix = "Last run: "
)

// cellSep is a column border: a "|" that Markdown does not see escaped.
var cellSep = regexp.MustCompile(`(^|[^\\])\|`)

// pageRow is a row of the page's table as written.
type pageRow struct {
	line                              int // index in the page's lines
	figure, target, measured, command string
}

// splitRow cuts a table line into its cells, "\|" read back as "|".
func splitRow(line string) ([]string, error) {
	// Mark each border with a byte no cell holds, then split on it.
	marked := cellSep.ReplaceAllString(strings.TrimSpace(line), "$1\x00")
	parts := strings.Split(marked, "\x00")
	if len(parts) < 2 || parts[0] != "" || strings.TrimSpace(parts[len(parts)-1]) != "" {
		return nil, fmt.Errorf("not a table row: %q", line)
	}
	cells := parts[1 : len(parts)-1]
	for i, c := range cells {
		cells[i] = strings.ReplaceAll(strings.TrimSpace(c), `\|`, "|")
	}
	return cells, nil
}

// tableRows finds the table under header and reads its rows.
func tableRows(lines []string) ([]pageRow, int, error) {
	start := -1
	for i, l := range lines {
		if l == header {
			start = i
			break
		}
	}
	if start < 0 || start+1 >= len(lines) || lines[start+1] != separator {
		return nil, 0, errors.New("no table headed " + header)
	}
	var rows []pageRow
	i := start + 2
	for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
		c, err := splitRow(lines[i])
		if err != nil {
			return nil, 0, fmt.Errorf("line %d: %v", i+1, err)
		}
		if len(c) != 4 {
			return nil, 0, fmt.Errorf("line %d: %d cells, want 4", i+1, len(c))
		}
		rows = append(rows, pageRow{line: i, figure: c[0], target: c[1], measured: c[2], command: strings.Trim(c[3], "`")})
	}
	return rows, i, nil
}

// formatRow writes a table line, escaping the borders' "|" in its cells.
func formatRow(figure, target, measured, cmd string) string {
	esc := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	return "| " + esc(figure) + " | " + esc(target) + " | " + esc(measured) + " | `" + esc(cmd) + "` |"
}

// check is what keeps the page and the rows one table: every row of
// the page has a rule (a row added by hand fails), every rule a row, the
// same target and command, and a row measured by hand says when.
func check(page string, rows []row) error {
	pr, _, err := tableRows(strings.Split(page, "\n"))
	if err != nil {
		return err
	}
	byFigure := map[string]row{}
	for _, rw := range rows {
		if _, dup := byFigure[rw.figure]; dup {
			return fmt.Errorf("two rules for %q", rw.figure)
		}
		byFigure[rw.figure] = rw
	}
	var errs []error
	seen := map[string]bool{}
	for _, p := range pr {
		rw, ok := byFigure[p.figure]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("line %d: row without a rule: %q", p.line+1, p.figure))
			continue
		case p.target != rw.target:
			errs = append(errs, fmt.Errorf("line %d: target %q, the rule says %q", p.line+1, p.target, rw.target))
		case p.command != rw.cmd:
			errs = append(errs, fmt.Errorf("line %d: command %q, the rule says %q", p.line+1, p.command, rw.cmd))
		case rw.hand != "" && !strings.Contains(p.measured, rw.handNote()):
			errs = append(errs, fmt.Errorf("line %d: measured by hand, the cell must say %q", p.line+1, rw.handNote()))
		}
		seen[p.figure] = true
	}
	for _, rw := range rows {
		if !seen[rw.figure] {
			errs = append(errs, fmt.Errorf("rule without a row on the page: %q", rw.figure))
		}
	}
	if !strings.Contains(page, "\n"+stampPrefix) {
		errs = append(errs, fmt.Errorf("no line starting %q", stampPrefix))
	}
	return errors.Join(errs...)
}

// rewrite writes the page again: each row from its rule, the measured
// cells given by figure replaced and the others kept, rows the page
// lacks added at the table's end, and the stamp line replaced.
func rewrite(page string, rows []row, measured map[string]string, stamp string) (string, error) {
	lines := strings.Split(page, "\n")
	pr, end, err := tableRows(lines)
	if err != nil {
		return "", err
	}
	onPage := map[string]pageRow{}
	for _, p := range pr {
		onPage[p.figure] = p
	}
	known := map[string]bool{}
	var added []string
	for _, rw := range rows {
		known[rw.figure] = true
		cell, ok := measured[rw.figure]
		p, there := onPage[rw.figure]
		if !ok {
			cell = p.measured
			if !there {
				cell = "not measured yet"
			}
		}
		line := formatRow(rw.figure, rw.target, cell, rw.cmd)
		if there {
			lines[p.line] = line
		} else {
			added = append(added, line)
		}
	}
	for _, p := range pr {
		if !known[p.figure] {
			return "", fmt.Errorf("line %d: row without a rule: %q", p.line+1, p.figure)
		}
	}
	lines = append(lines[:end], append(added, lines[end:]...)...)
	for i, l := range lines {
		if strings.HasPrefix(l, stampPrefix) {
			lines[i] = stamp
			return strings.Join(lines, "\n"), nil
		}
	}
	return "", fmt.Errorf("no line starting %q", stampPrefix)
}
