package gen

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRepoEditsStayBounded applies many edits: every edit must apply (its
// old text is in the file) and the files must not grow, since edits toggle
// between two versions.
func TestRepoEditsStayBounded(t *testing.T) {
	r := newRepo()
	rng := rand.New(rand.NewPCG(1, 2))
	limit := map[string]int{}
	for _, f := range r.files {
		limit[f.path] = len(f.content) + 400
	}
	for i := 0; i < 5000; i++ {
		f := r.pick(rng)
		oldStr, newStr, _ := f.nextEdit(rng)
		if !strings.Contains(f.content, oldStr) {
			t.Fatalf("edit %d of %s: old text not in the file", i, f.path)
		}
		f.content, _ = replaceOnce(f.content, oldStr, newStr)
		if len(f.content) > limit[f.path] {
			t.Fatalf("%s grew to %d bytes after %d edits", f.path, len(f.content), i)
		}
	}
}
