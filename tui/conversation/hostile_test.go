package conversation

import (
	"strings"
	"testing"
	"unicode/utf8"

	"ohwatch/tui/internal/tuitest"
)

// forbidden reports the first byte or rune in s that could drive a
// terminal: ESC, any C0 control but newline, DEL, a C1 control, or a bidi
// override or isolate.
func forbidden(s string) (string, bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return "invalid UTF-8", true
			}
		case r == '\n':
		case r < 0x20 || r == 0x7f:
			return "C0 control " + Itoa(int(r)), true
		case r >= 0x80 && r <= 0x9f:
			return "C1 control " + Itoa(int(r)), true
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return "bidi control " + Itoa(int(r)), true
		}
	}
	return "", false
}

// TestHostileRecording renders a recording with escape sequences, an OSC 52
// clipboard write, carriage returns, C1 controls and bidi overrides in every
// text field, on every event, in every pane and inspector mode, with
// colours off: not a single control byte may reach the screen.
func TestHostileRecording(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		log := tuitest.HostileLog(t)
		for _, size := range tuitest.GoldenSizes {
			m := newModel(Options{Log: log, Title: tuitest.HostileText, Source: tuitest.HostileText}, size[0], size[1])
			check := func(what string, m *Conversation) {
				t.Helper()
				out := screen(m)
				if bad, ok := forbidden(out); ok {
					t.Fatalf("%s at %dx%d: %s on screen:\n%q", what, size[0], size[1], bad, out)
				}
				tuitest.AssertScreenShape(t, out, size[0], size[1])
			}
			m, _ = press(t, m, "F") // show the noise rows too
			for i := 0; i < log.Len(); i++ {
				check("row "+Itoa(i), m)
				for _, keys := range [][]string{{"enter"}, {"enter", "r"}, {"enter", "d"}, {"tab"}, {"tab", "tab"}, {"tab", "tab", "tab"}, {"t"}} {
					k, _ := press(t, m, keys...)
					check(strings.Join(keys, "+")+" on row "+Itoa(i), k)
					// Unfold everything in the raw view.
					if len(keys) == 2 && keys[1] == "r" {
						for j := 0; j < 40; j++ {
							k, _ = press(t, k, "j", "z")
						}
						check("unfolded raw on row "+Itoa(i), k)
					}
				}
				m, _ = press(t, m, "j")
			}
			// A search for hostile text and a flash that echoes the query.
			m, _ = press(t, m, "/")
			m = typeText(t, m, "\x1b]52;c;x\x07")
			check("search prompt", m)
			m, cmd := press(t, m, "enter")
			m = runCmd(t, m, cmd)
			check("search result", m)
		}
	})
}
