package gen

import (
	"fmt"
	"strings"
)

// UnifiedDiff is `git diff` output for one file changed from before to
// after: a line diff (longest common subsequence) in hunks with three lines
// of context. It is "" when nothing changed. The files it is meant for are
// small, so the quadratic table is fine.
func UnifiedDiff(path, before, after string) string {
	if before == after {
		return ""
	}
	a := splitLines(before)
	b := splitLines(after)
	ops := diffOps(a, b)
	var sb strings.Builder
	fmt.Fprintf(&sb, "diff --git a/%s b/%s\nindex %s..%s 100644\n--- a/%s\n+++ b/%s\n",
		path, path, shortHash(before), shortHash(after), path, path)
	const ctx = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk runs from ctx lines before this change to ctx lines after
		// the last change that is within 2*ctx lines of the previous one.
		start := max(i-ctx, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*ctx {
				break
			}
		}
		stop := min(end+ctx+1, len(ops))
		oldStart, newStart := ops[start].oldLine, ops[start].newLine
		oldCount, newCount := 0, 0
		for _, op := range ops[start:stop] {
			if op.kind != '+' {
				oldCount++
			}
			if op.kind != '-' {
				newCount++
			}
		}
		fmt.Fprintf(&sb, "@@ -%d,%d +%d,%d @@\n", oldStart, oldCount, newStart, newCount)
		for _, op := range ops[start:stop] {
			sb.WriteByte(op.kind)
			sb.WriteString(op.text)
			sb.WriteByte('\n')
		}
		i = stop
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// diffOp is one line of a diff: ' ' kept, '-' removed, '+' added, with the
// 1-based line numbers it sits at in the old and new file.
type diffOp struct {
	kind             byte
	text             string
	oldLine, newLine int
}

func diffOps(a, b []string) []diffOp {
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i], i + 1, j + 1})
			i++
			j++
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, diffOp{'+', b[j], i + 1, j + 1})
			j++
		default:
			ops = append(ops, diffOp{'-', a[i], i + 1, j + 1})
			i++
		}
	}
	return ops
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// shortHash is a stable 7-hex-digit stand-in for a blob hash (FNV-1a).
func shortHash(s string) string {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return fmt.Sprintf("%07x", h>>4)
}
