package conversation

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"ohwatch/tui/internal/tuitest"
)

// TestGoldenSearch is a search as it is typed (the preview, the prompt)
// and once kept (the count in the title, the position in the footer, the
// marks on the scrubber), at both sizes.
func TestGoldenSearch(t *testing.T) {
	t.Parallel()
	build := map[string]func(t *testing.T, w, h int) *Conversation{
		"typing": func(t *testing.T, w, h int) *Conversation {
			m := newModel(Options{Log: demoLog(t, -1), Title: "demo", Source: "replay demo"}, w, h)
			m, _ = press(t, m, "/")
			return finishSearch(t, typeText(t, m, "ttl"))
		},
		"kept": func(t *testing.T, w, h int) *Conversation {
			m := newModel(Options{Log: demoLog(t, -1), Title: "demo", Source: "replay demo"}, w, h)
			m, _ = press(t, m, "/")
			m = finishSearch(t, typeText(t, m, "ttl"))
			m, _ = press(t, m, "enter", "n", "n")
			return m
		},
	}
	for _, name := range []string{"typing", "kept"} {
		for _, size := range tuitest.GoldenSizes {
			t.Run(fmt.Sprintf("%s_%dx%d", name, size[0], size[1]), func(t *testing.T) {
				out := screen(build[name](t, size[0], size[1]))
				tuitest.AssertScreenShape(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
}
