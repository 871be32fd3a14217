package gen

import (
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	before := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	after := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\nadded\n"
	got := UnifiedDiff("x.go", before, after)
	want := []string{
		"--- a/x.go", "+++ b/x.go",
		"@@ -1,5 +1,5 @@", " a", "-b", "+B", " c", " d", " e",
		"@@ -12,3 +12,4 @@", " l", " m", " n", "+added",
	}
	for _, w := range want {
		if !strings.Contains(got, w+"\n") && !strings.HasSuffix(got, w) {
			t.Errorf("diff lacks line %q:\n%s", w, got)
		}
	}
	if UnifiedDiff("x.go", before, before) != "" {
		t.Error("no change should give no diff")
	}
}
