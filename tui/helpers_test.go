package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/gen"
	"ohwatch/internal/upstream"
	"ohwatch/model"
	"ohwatch/reducer"
)

// trajectory loads a real recorded conversation from the shared testdata
// (events/*.json in file order) into a fresh log.
func trajectory(tb testing.TB, name string) *reducer.Log {
	tb.Helper()
	dir := filepath.Join(upstream.Dir(tb), "trajectories", name, "events")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no events in %s: %v", dir, err)
	}
	sort.Strings(files)
	log := reducer.NewLog(nil, 0)
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		log.Append(decode(tb, raw))
	}
	return log
}

// generated returns a log of n generated events.
func generated(tb testing.TB, n int, seed int64) *reducer.Log {
	tb.Helper()
	log := reducer.NewLog(nil, 0)
	log.Append(generatedEvents(tb, n, seed)...)
	return log
}

// generatedEvents decodes n generated events.
func generatedEvents(tb testing.TB, n int, seed int64) []model.Event {
	tb.Helper()
	evs := make([]model.Event, 0, n)
	for raw := range gen.Events(gen.Options{Events: n, Seed: seed}) {
		evs = append(evs, decode(tb, raw))
	}
	return evs
}

// decode decodes one raw event, failing the test when it is not JSON.
func decode(tb testing.TB, raw []byte) model.Event {
	tb.Helper()
	ev, err := model.Decode(raw)
	if err != nil {
		tb.Fatalf("decode %.80s: %v", raw, err)
	}
	return ev
}

// fixtureLog decodes hand-written raw events (one JSON object per string).
func fixtureLog(tb testing.TB, raws ...string) *reducer.Log {
	tb.Helper()
	log := reducer.NewLog(nil, 0)
	for _, r := range raws {
		log.Append(decode(tb, []byte(r)))
	}
	return log
}

// newModel builds a plain-text model of the given size.
func newModel(opts Options, w, h int) *Conversation {
	opts.NoColor, opts.Profile = true, colorprofile.NoTTY
	m := NewConversation(opts)
	_ = m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// keyMsg builds the key press a terminal sends for a key name as
// tea.KeyPressMsg.String() spells it ("j", "G", "enter", "ctrl+d").
func keyMsg(name string) tea.KeyPressMsg {
	special := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "down": tea.KeyDown, "up": tea.KeyUp,
		"home": tea.KeyHome, "end": tea.KeyEnd, "pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp,
		"tab": tea.KeyTab, "backspace": tea.KeyBackspace,
	}
	if code, ok := special[name]; ok {
		return tea.KeyPressMsg{Code: code}
	}
	if name == "space" {
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	if rest, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(rest[0]), Mod: tea.ModCtrl}
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// press sends keys to the model one by one, running no commands, and
// returns the model and the last command.
func press(tb testing.TB, m *Conversation, keys ...string) (*Conversation, tea.Cmd) {
	tb.Helper()
	var cmd tea.Cmd
	for _, k := range keys {
		cmd = m.Update(keyMsg(k))
		settle(m)
	}
	return m, cmd
}

// settle builds the inspector's view now when a key asked for it, as the
// command Update returned would, and hands it to Update: a test reads the
// open inspector without running the program.
func settle(m *Conversation) {
	if b := m.insp.build; b != nil {
		m.Update(b.run())
	}
}

// typeText types text into an open prompt.
func typeText(tb testing.TB, m *Conversation, text string) *Conversation {
	tb.Helper()
	for _, r := range text {
		_ = m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return m
}

// jumpTo opens the jump prompt, types target and submits it, as a user
// jumping to an event number or a time does.
func jumpTo(tb testing.TB, m *Conversation, target string) *Conversation {
	tb.Helper()
	m, _ = press(tb, m, ":")
	m = typeText(tb, m, target)
	m, _ = press(tb, m, "enter")
	return m
}

// inBubble runs f in a synctest bubble: the ticks a view starts (a
// flash's expiry, a refresh's next run) and runCmd's wait for a command
// that does not answer run on the bubble's clock, which moves only when
// every goroutine of the test waits, so a test does not wait them out in
// real time. Before it returns, the clock is moved past the longest tick
// so that the commands still waiting on one end.
func inBubble(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		f(t)
		time.Sleep(time.Minute)
	})
}

// screen renders the model as plain text.
func screen(m *Conversation) string {
	return m.View()
}

// fmtType names a value's dynamic type.
func fmtType(v any) string { return fmt.Sprintf("%T", v) }

// windowSize is the message a resize sends.
func windowSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// isPop reports whether cmd goes back one screen (Pop).
func isPop(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	msg, ok := cmd().(popMsg)
	return ok && msg.quitAtRoot
}

// inspLineCount is the number of lines the inspector has at width.
func inspLineCount(m *Conversation, width int) int {
	lines, _ := m.inspLines(width)
	return len(lines)
}

// runSearch runs the search command among cmd (a tea.Batch's children are
// run side by side, and a child that is not the search is left) and every
// step the search takes after it, until the search stops running. Unlike
// runCmd it waits for the search however long it takes: under a loaded
// machine a scan step can outlast runCmd's tick cut-off.
func runSearch(tb testing.TB, m *Conversation, cmd tea.Cmd) *Conversation {
	tb.Helper()
	for cmd != nil {
		msg, ok := awaitSearchMsg(cmd)
		if !ok {
			tb.Fatal("no search step came within 30s")
		}
		cmd = m.Update(msg)
		if !m.search.running {
			return m
		}
	}
	return m
}

// awaitSearchMsg runs cmd and returns the first searchProgressMsg it (or,
// for a batch, any of its children) produces within 30s.
func awaitSearchMsg(cmd tea.Cmd) (searchProgressMsg, bool) {
	found := make(chan searchProgressMsg, 1)
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		switch msg := c().(type) {
		case tea.BatchMsg:
			for _, child := range msg {
				if child != nil {
					go run(child)
				}
			}
		case searchProgressMsg:
			select {
			case found <- msg:
			default:
			}
		}
	}
	go run(cmd)
	select {
	case msg := <-found:
		return msg, true
	case <-time.After(30 * time.Second):
		return searchProgressMsg{}, false
	}
}
