package gen

import (
	"strconv"
	"strings"
)

// CatN numbers the lines of content from first the way `cat -n` does (a
// six-wide right-aligned number and a tab), as file_editor shows files.
func CatN(content string, first int) string {
	var sb strings.Builder
	sb.Grow(len(content) + 8*countLines(content))
	n := first
	for line := range strings.Lines(content) {
		num := strconv.Itoa(n)
		for i := len(num); i < 6; i++ {
			sb.WriteByte(' ')
		}
		sb.WriteString(num)
		sb.WriteByte('\t')
		sb.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			sb.WriteByte('\n')
		}
		n++
	}
	return sb.String()
}

// countLines is the number of lines in s (a last line without a newline
// counts).
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// lineRange returns lines [from, to] of s (1-based, clamped) and the number
// of the first line returned.
func lineRange(s string, from, to int) (string, int) {
	if from < 1 {
		from = 1
	}
	var sb strings.Builder
	n := 0
	for line := range strings.Lines(s) {
		n++
		if n >= from && n <= to {
			sb.WriteString(line)
		}
	}
	return sb.String(), from
}

// replaceOnce replaces the first oldStr in s by newStr and returns the
// result and the 1-based line where the replacement starts (1 when oldStr
// is not found, which leaves s as it was).
func replaceOnce(s, oldStr, newStr string) (string, int) {
	i := strings.Index(s, oldStr)
	if i < 0 {
		return s, 1
	}
	return s[:i] + newStr + s[i+len(oldStr):], strings.Count(s[:i], "\n") + 1
}
