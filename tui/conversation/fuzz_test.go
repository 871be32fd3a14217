package conversation

import (
	"os"
	"path/filepath"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/upstream"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// FuzzRenderEvent draws any event the decoder accepts in the list and in
// every inspector mode: the screen keeps its size and no control byte from
// the event reaches it. Seeded with every recorded event at hand.
func FuzzRenderEvent(f *testing.F) {
	// The project's own recordings always; the upstream ones where they are.
	files, _ := filepath.Glob(filepath.Join(fixtures.Dir(f), "*", "events", "*.json"))
	if upstream.Present(f) {
		more, _ := filepath.Glob(filepath.Join(upstream.Dir(f), "trajectories", "*", "events", "*.json"))
		files = append(files, more...)
	}
	for _, file := range files {
		if raw, err := os.ReadFile(file); err == nil && len(raw) < 64<<10 {
			f.Add(raw)
		}
	}
	f.Add([]byte(`{"kind":"MessageEvent","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"\u001b]52;c;eA==\u0007\r\u202e"}]}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		ev, err := model.Decode(raw)
		if err != nil {
			return
		}
		log := reducer.NewLog(nil, 0)
		log.Append(ev)
		m := newModel(Options{Log: log, Title: "fuzz"}, 80, 24)
		m, _ = press(t, m, "F")
		for _, keys := range [][]string{nil, {"enter"}, {"enter", "r"}, {"enter", "d"}} {
			k, _ := press(t, m, keys...)
			out := screen(k)
			tuitest.AssertScreenShape(t, out, 80, 24)
			if bad, ok := forbidden(out); ok {
				t.Fatalf("%v: %s on screen", keys, bad)
			}
		}
	})
}
