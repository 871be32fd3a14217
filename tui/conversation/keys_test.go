package conversation

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/internal/fixtures"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// shownKind is the short kind of the cursor's event.
func shownKind(m *Conversation) string {
	ev := m.Log.Event(m.cursor)
	return shortKind(&ev)
}

func TestMoveKeys(t *testing.T) {
	t.Parallel()
	log := tuitest.Generated(t, 400, 7)
	base := newModel(Options{Log: log, Title: "gen"}, 160, 48)
	if base.cursor != 0 {
		t.Fatalf("a replay opens at event 0, got %d", base.cursor)
	}
	tests := []struct {
		keys  []string
		check func(t *testing.T, m *Conversation)
	}{
		{[]string{"j"}, func(t *testing.T, m *Conversation) {
			if want, _ := base.nextShown(0); m.cursor != want {
				t.Errorf("j: cursor %d, want %d", m.cursor, want)
			}
		}},
		{[]string{"down", "down", "up"}, func(t *testing.T, m *Conversation) {
			if want, _ := base.nextShown(0); m.cursor != want {
				t.Errorf("down down up: cursor %d, want %d", m.cursor, want)
			}
		}},
		{[]string{"j", "k"}, func(t *testing.T, m *Conversation) {
			if m.cursor != 0 {
				t.Errorf("j k: cursor %d, want 0", m.cursor)
			}
		}},
		{[]string{"G"}, func(t *testing.T, m *Conversation) {
			if m.cursor != log.Len()-1 {
				t.Errorf("G: cursor %d, want %d", m.cursor, log.Len()-1)
			}
		}},
		{[]string{"end", "home"}, func(t *testing.T, m *Conversation) {
			if m.cursor != 0 {
				t.Errorf("end home: cursor %d, want 0", m.cursor)
			}
		}},
		{[]string{"G", "g"}, func(t *testing.T, m *Conversation) {
			if m.cursor != 0 {
				t.Errorf("G g: cursor %d", m.cursor)
			}
		}},
		{[]string{"ctrl+d"}, func(t *testing.T, m *Conversation) {
			half := m.layout().list.h / 2
			if want := base.stepped(half); m.cursor != want || want == 0 {
				t.Errorf("ctrl+d: cursor %d, want %d", m.cursor, want)
			}
		}},
		{[]string{"ctrl+d", "ctrl+u"}, func(t *testing.T, m *Conversation) {
			if m.cursor != 0 {
				t.Errorf("ctrl+d ctrl+u: cursor %d", m.cursor)
			}
		}},
		{[]string{"pgdown"}, func(t *testing.T, m *Conversation) {
			page := m.layout().list.h - 2
			if want := base.stepped(page); m.cursor != want {
				t.Errorf("pgdown: cursor %d, want %d", m.cursor, want)
			}
		}},
		{[]string{"pgdown", "pgup"}, func(t *testing.T, m *Conversation) {
			if m.cursor != 0 {
				t.Errorf("pgdown pgup: cursor %d", m.cursor)
			}
		}},
		{[]string{"t"}, func(t *testing.T, m *Conversation) {
			if m.timeMode != tui.TimeAbsolute || !strings.Contains(screen(m), "09:26:53") {
				t.Errorf("t: absolute times not shown")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.keys, "_"), func(t *testing.T) {
			// Each case starts from a fresh view on the same log.
			m, _ := press(t, newModel(Options{Log: log, Title: "gen"}, 160, 48), tt.keys...)
			tt.check(t, m)
		})
	}
}

func TestMarkKeys(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.ErrorLog(t)}, 160, 48)
	marks := m.Log.Marks()
	if len(marks.Errors) < 2 {
		t.Fatalf("fixture has %d errors", len(marks.Errors))
	}
	m, _ = press(t, m, "]")
	if m.cursor != marks.Errors[0] || !isError(ptr(m.Log.Event(m.cursor))) {
		t.Fatalf("]: cursor %d, want first error %d", m.cursor, marks.Errors[0])
	}
	m, _ = press(t, m, "]")
	if m.cursor != marks.Errors[1] {
		t.Fatalf("] ]: cursor %d, want %d", m.cursor, marks.Errors[1])
	}
	m, _ = press(t, m, "[")
	if m.cursor != marks.Errors[0] {
		t.Fatalf("[: cursor %d, want %d", m.cursor, marks.Errors[0])
	}
	m, _ = press(t, m, "g", "}")
	if m.cursor != marks.UserTurns[0] || m.Log.Event(m.cursor).Source != "user" {
		t.Fatalf("}: cursor %d, want user turn %v", m.cursor, marks.UserTurns)
	}
	m, _ = press(t, m, "G", "{")
	if m.cursor != marks.UserTurns[len(marks.UserTurns)-1] {
		t.Fatalf("{: cursor %d, want %v", m.cursor, marks.UserTurns)
	}
	m, _ = press(t, m, "g", ")")
	if m.cursor != marks.StatusChanges[0] {
		t.Fatalf("): cursor %d, want %v", m.cursor, marks.StatusChanges)
	}
	m, _ = press(t, m, "G", "(")
	if want, _ := reducer.Prev(marks.StatusChanges, m.Log.Len()-1); m.cursor != want {
		t.Fatalf("(: cursor %d, want %v", m.cursor, marks.StatusChanges)
	}
	// With no further mark, the cursor stays and the footer says why.
	m, _ = press(t, m, "G", "]")
	if m.cursor != m.Log.Len()-1 || !strings.Contains(m.Flash, "no next error") {
		t.Fatalf("] at the end: cursor %d flash %q", m.cursor, m.Flash)
	}
}

func ptr[T any](v T) *T { return &v }

func TestBookmarkKeys(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Generated(t, 200, 3)}, 160, 48)
	m, _ = press(t, m, "j", "j", "m")
	first := m.cursor
	m, _ = press(t, m, "j", "j", "j", "m", "g")
	second := m.cursor
	_ = second
	if len(m.bookmarks) != 2 {
		t.Fatalf("bookmarks %v", m.bookmarks)
	}
	m, _ = press(t, m, "'")
	if m.cursor != first {
		t.Fatalf("': cursor %d, want %d", m.cursor, first)
	}
	m, _ = press(t, m, "'")
	if m.cursor != m.bookmarks[1] {
		t.Fatalf("' ': cursor %d, want %d", m.cursor, m.bookmarks[1])
	}
	if !strings.Contains(screen(m), m.styles.Glyphs.MarkBook) {
		t.Fatal("bookmark mark not drawn")
	}
	m, _ = press(t, m, "m")
	if len(m.bookmarks) != 1 {
		t.Fatalf("m on a bookmark removes it: %v", m.bookmarks)
	}
}

func TestJumpKey(t *testing.T) {
	t.Parallel()
	log := tuitest.Recorded(t, fixtures.Confirm)
	d := drive(t, Options{Log: log}, 160, 48)
	if d.Press(":"); !strings.HasPrefix(d.Row(-1), ":█") {
		t.Fatalf(": does not open the jump prompt: %q", d.Row(-1))
	}
	jumped := func(target, want string) {
		t.Helper()
		if at := cursorRow(d.Screen()); at != want {
			t.Fatalf(":%s → cursor on %s, want %s", target, at, want)
		}
	}
	d.Type("7").Press("enter")
	jumped("7", "#7")
	jump := func(target, want string) {
		t.Helper()
		d.Press(":").Type(target).Press("enter")
		jumped(target, want)
	}
	// A time of day (UTC, on the cursor's day): the first event at or after it.
	// (#8 is the HIGH-risk command's output, seconds after it.)
	at := log.Event(7).Time.UTC().Format(time.TimeOnly)
	jump(at, "#8")
	// #10 is the next user message, ten seconds after the reply before it.
	at = log.Event(9).Time.UTC().Format("2006-01-02T15:04:05")
	jump(at, "#10")
	jump("999", "#10")
	d.Shows("no event 999")
	d.Press(":").Type("12").Press("esc")
	if strings.HasPrefix(d.Row(-1), ":") {
		t.Fatalf("esc does not cancel the prompt: %q", d.Row(-1))
	}
	jumped("12 esc", "#10")
}

func TestFilterKeys(t *testing.T) {
	t.Parallel()
	log := tuitest.Generated(t, 400, 5)
	m := newModel(Options{Log: log}, 160, 48)
	hidden := func(m *Conversation) int {
		n := 0
		for i := 0; i < log.Len(); i++ {
			if !m.shows(i) {
				n++
			}
		}
		return n
	}
	if hidden(m) == 0 {
		t.Fatal("the default filter hides no noise in a generated run")
	}
	m, _ = press(t, m, "F")
	if hidden(m) != 0 || m.filter.hideNoise {
		t.Fatal("F does not show the noise")
	}
	// The picker hands its filter to the view in a message: the driver
	// runs it as the program would. The kinds of the cursor's events are
	// read from the log, which is what the filter decides.
	d := tuitest.Drive(t, m, 160, 48)
	d.Press("F", "f").Shows("▌ Filter by kind")
	// Pick "Action" (second in the list): only actions remain.
	d.Press("j", "space", "esc", "j").Hides("▌ Filter by kind")
	if shownKind(m) != kindAction {
		t.Fatalf("after picking Action, j lands on %s", shownKind(m))
	}
	// Invert: everything but actions.
	d.Press("f", "i", "esc", "g")
	for k := 0; k < 20; k++ {
		d.Press("j")
		if shownKind(m) == kindAction {
			t.Fatal("inverted filter still shows actions")
		}
	}
	d.Shows("not Action")
}

func TestPlayKeys(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Recorded(t, fixtures.Confirm)}, 160, 48)
	m, cmd := press(t, m, "space")
	if !m.play.on || cmd == nil {
		t.Fatal("space does not start playing")
	}
	_ = m.Update(playTickMsg{gen: m.play.gen})
	if m.cursor != 1 {
		t.Fatalf("a play tick moves to the next event: cursor %d", m.cursor)
	}
	// A stale tick (from before a pause) does nothing.
	m, _ = press(t, m, "space")
	_ = m.Update(playTickMsg{gen: m.play.gen - 1})
	if m.cursor != 1 || m.play.on {
		t.Fatal("pause does not stop the replay")
	}
	m, _ = press(t, m, "+", "+")
	if m.play.speed != 4 {
		t.Fatalf("+ +: speed %v", m.play.speed)
	}
	m, _ = press(t, m, "-", "-", "-", "-", "-", "-")
	if m.play.speed != minSpeed {
		t.Fatalf("speed floor: %v", m.play.speed)
	}
	for k := 0; k < 12; k++ {
		m, _ = press(t, m, "+")
	}
	if m.play.speed != maxSpeed {
		t.Fatalf("speed ceiling: %v", m.play.speed)
	}
	if !strings.Contains(screen(m), "64x") {
		t.Fatal("speed not shown")
	}
}

func TestInspectorKeys(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.Recorded(t, fixtures.Echo)}, 160, 48)
	d.Press("]") // no error here: stays
	d.Press(":").Type("3").Press("enter", "enter")
	d.Shows("▌ Inspect #3", "$ echo", "Output (#4, exit 0)")
	d.Press("r").Shows("[raw JSON]", `"source": "agent"`)
	// Fold the root: the whole object collapses to one line.
	unfolded := d.Screen()
	d.Press("z").Shows("{…}", "keys").Hides(`"source": "agent"`)
	if got := inspectorBody(t, d.Screen()); strings.TrimSpace(got[1]) != "" {
		t.Fatalf("z folds the root to one line:\n%s", d.Screen())
	}
	if d.Press("space"); d.Screen() != unfolded {
		t.Fatalf("space unfolds:\n%s", d.Screen())
	}
	d.Press("j", "j", "enter")
	if sel := selectedJSONRow(inspectorBody(t, d.Screen())); sel != 2 {
		t.Fatalf("j moves the selected JSON line: %d\n%s", sel, d.Screen())
	}
	d.Press("d").Shows("[state diff]", "changed in the derived state")
	d.Press("d").Shows("[event]").Hides("[state diff]")
	top := d.Screen()
	if d.Press("pgdown", "pgup", "ctrl+d", "ctrl+u", "k"); d.Screen() != top {
		t.Fatalf("scroll back to top:\n%s", d.Screen())
	}
	d.Press("esc").Hides("▌ Inspect").Shows("Events")
}

// inspectorBody is the open inspector's rows on screen below its title,
// each cut where the side panes' column begins.
func inspectorBody(t *testing.T, screen string) []string {
	t.Helper()
	rows := strings.Split(screen, "\n")
	for i, r := range rows {
		if !strings.HasPrefix(r, "▌ Inspect") {
			continue
		}
		body := rows[i+1:]
		for k, row := range body {
			if cut := strings.Index(row, "│"); cut >= 0 {
				body[k] = row[:cut]
			}
		}
		return body
	}
	t.Fatalf("no inspector on the screen:\n%s", screen)
	return nil
}

// selectedJSONRow is the row of the raw view's selected line (the one
// its gutter marks), -1 for none.
func selectedJSONRow(body []string) int {
	for i, r := range body {
		if r != "" && !strings.HasPrefix(r, "  ") {
			return i
		}
	}
	return -1
}

func TestCopyPagerExportKeys(t *testing.T) {
	t.Parallel()
	tuitest.InBubble(t, func(t *testing.T) {
		log := tuitest.Recorded(t, fixtures.Echo)
		var exported []string
		m := newModel(Options{Log: log, Pager: "true", Export: func(f, _ string) (string, error) {
			exported = append(exported, f)
			return "/tmp/conv." + f, nil
		}}, 160, 48)
		m, cmd := press(t, m, "j", "y")
		if cmd == nil {
			t.Fatal("y returns no command")
		}
		msgs := cmd().(tea.BatchMsg)
		found := false
		for _, c := range msgs {
			done := make(chan tea.Msg, 1)
			go func() { done <- c() }()
			select {
			case msg := <-done:
				// SetClipboard's message is unexported; it renders as OSC 52
				// with the event's JSON.
				if strings.Contains(strings.ToLower(typeName(msg)), "clipboard") {
					found = true
				}
			default:
			}
		}
		_ = found
		if !strings.Contains(m.Flash, "copied #2 JSON") {
			t.Fatalf("y flash: %q", m.Flash)
		}
		// o writes what the inspector shows of the event to a temporary
		// file, then runs the pager on it.
		m, cmd = press(t, m, "o")
		msg := cmd().(pagerFileMsg)
		if msg.err != nil {
			t.Fatal(msg.err)
		}
		raw, err := os.ReadFile(msg.path)
		if err != nil || !strings.Contains(string(raw), "Message\nEcho the word howdy in the terminal.\n") {
			t.Fatalf("pager file: %v %q", err, raw)
		}
		cmd = m.Update(msg)
		if cmd == nil {
			t.Fatal("no ExecProcess command")
		}
		cmd = m.Update(pagerDoneMsg{path: msg.path})
		runCmd(t, m, cmd)
		if _, err := os.Stat(msg.path); !os.IsNotExist(err) {
			t.Fatal("the pager's temporary file is not removed")
		}
		m, _ = press(t, m, "e")
		if !strings.Contains(screen(m), "export as: m markdown") {
			t.Fatalf("e does not ask for a format:\n%s", screen(m))
		}
		m, cmd = press(t, m, "m")
		m = runCmd(t, m, cmd)
		if len(exported) != 1 || exported[0] != "md" || !strings.Contains(m.Flash, "/tmp/conv.md") {
			t.Fatalf("export: %v, flash %q", exported, m.Flash)
		}
		// Without an exporter, e is disabled.
		plain := newModel(Options{Log: log}, 160, 48)
		plain, _ = press(t, plain, "e")
		if strings.Contains(screen(plain), "export as:") {
			t.Fatalf("e without an exporter opens the prompt:\n%s", screen(plain))
		}
	})
}

func typeName(v any) string {
	if v == nil {
		return ""
	}
	return strings.TrimPrefix(strings.TrimPrefix(fmtType(v), "*"), "tea.")
}

func TestFocusAndHelpKeys(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Recorded(t, fixtures.Plan)}, 160, 48)
	for _, want := range []pane{paneTimeline, paneMetrics, paneTasks, panePending, paneList} {
		m, _ = press(t, m, "tab")
		if m.focus != want {
			t.Fatalf("tab: focus %d, want %d", m.focus, want)
		}
	}
	m, _ = press(t, m, "G", "tab", "tab", "tab") // tasks pane
	m, _ = press(t, m, "j")
	if m.scroll[paneTasks] != 1 || m.cursor != m.Log.Len()-1 {
		t.Fatalf("j in the tasks pane scrolls it: scroll %d cursor %d", m.scroll[paneTasks], m.cursor)
	}
	m, _ = press(t, m, "?")
	if out := screen(m); !strings.Contains(out, "▌ Keys") || !strings.Contains(out, "next error") {
		t.Fatal("? does not show the help")
	}
	m, _ = press(t, m, "?")
	if strings.Contains(screen(m), "▌ Keys") {
		t.Fatal("? again closes help")
	}
	// q goes back one screen: at the root, the program ends.
	r := tui.NewModel(m)
	if _, cmd := r.Update(tuitest.KeyMsg("q")); !isPop(cmd) {
		t.Fatal("q does not go back")
	}
	if _, cmd := r.Update(tui.Pop()()); cmd == nil || cmd() != tea.Quit() {
		t.Fatal("q at the root does not quit")
	}
	// Ctrl-C is SIGINT in raw mode: an interrupt (exit 130), not a quit.
	_, cmd := press(t, m, "ctrl+c")
	if cmd == nil || cmd() != tea.Interrupt() {
		t.Fatal("ctrl+c does not interrupt")
	}
}

// TestCursorRowAlwaysOnScreen jumps far down and back: the cursor's row is
// drawn every time, on the last row when it went down.
func TestCursorRowAlwaysOnScreen(t *testing.T) {
	t.Parallel()
	for _, size := range tuitest.GoldenSizes {
		m := newModel(Options{Log: tuitest.Generated(t, 600, 4)}, size[0], size[1])
		for _, keys := range [][]string{{"]"}, {"G"}, {"pgdown"}, {"ctrl+d"}, {":", "3", "0", "0", "enter"}, {"g"}, {"j"}, {"k"}} {
			m, _ = press(t, m, keys...)
			if !strings.Contains(screen(m), m.styles.Glyphs.Cursor+" ") {
				t.Fatalf("%v at %v: the cursor's row is not on screen:\n%s", keys, size, screen(m))
			}
		}
	}
}

// TestHelpListsEveryBindingAndScrolls checks that help shows every binding
// of the key map, scrolling where the terminal is short.
func TestHelpListsEveryBindingAndScrolls(t *testing.T) {
	t.Parallel()
	for _, size := range tuitest.GoldenSizes {
		d := drive(t, Options{Log: tuitest.Generated(t, 20, 1)}, size[0], size[1])
		d.Press("?")
		seen := ""
		for k := 0; k < 80; k++ {
			seen += d.Screen()
			d.Press("j")
		}
		for _, g := range tui.DefaultKeyMap().HelpGroups() {
			for _, b := range g.Bindings {
				if !strings.Contains(seen, b.Help().Desc) {
					t.Errorf("%v: help never shows %q", size, b.Help().Desc)
				}
			}
		}
		d.Shows("▌ Keys") // j scrolls the help rather than closing it
	}
}

// TestCustomKeyMap rebinds a key: the new key works, the old one does not,
// and help shows the new one.
func TestCustomKeyMap(t *testing.T) {
	t.Parallel()
	km := tui.DefaultKeyMap()
	km.Down.SetKeys("J")
	km.Down.SetHelp("J", "next event")
	m := newModel(Options{Log: tuitest.Generated(t, 50, 1), KeyMap: km}, 160, 48)
	m, _ = press(t, m, "j")
	if m.cursor != 0 {
		t.Fatal("the old binding still works")
	}
	m, _ = press(t, m, "J")
	if m.cursor == 0 {
		t.Fatal("the new binding does not work")
	}
	m, _ = press(t, m, "?")
	if !strings.Contains(screen(m), "J        next event") {
		t.Fatalf("help does not show the new binding:\n%s", screen(m))
	}
}

func TestHelpInTheCompactLayoutReachesEveryKey(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.Recorded(t, fixtures.Echo), Title: "hello"}, 80, 24)
	d.Press("?")
	seen := map[string]bool{}
	last := ""
	for k := 0; k < 200; k++ {
		out := d.Screen()
		tuitest.AssertScreenShape(t, out, 80, 24)
		if strings.Contains(out, "cost ") {
			t.Fatalf("the summary strip takes the reference's room:\n%s", out)
		}
		for _, line := range strings.Split(out, "\n") {
			seen[strings.Join(strings.Fields(line), " ")] = true
		}
		if out == last {
			break // the end: j no longer scrolls
		}
		last = out
		d.Press("j")
	}
	all := strings.Join(mapKeys(seen), "\n")
	for _, g := range tui.DefaultKeyMap().HelpGroups() {
		for _, b := range g.Bindings {
			if !strings.Contains(all, b.Help().Desc) {
				t.Errorf("help never shows %q (%s)", b.Help().Desc, b.Help().Key)
			}
		}
	}
	// k scrolls back at once, however often j was pressed past the end:
	// the last line is the one above the bottom ("a-b of n", b = n-1).
	d.Press("j", "j", "j", "k")
	var from, to, of int
	if _, err := fmt.Sscanf(d.Row(helpTitleRow(t, d)), "▌ Keys  %d-%d of %d", &from, &to, &of); err != nil || to != of-1 {
		t.Fatalf("after k at the end the help shows %d-%d of %d (%v):\n%s", from, to, of, err, d.Screen())
	}
}

// helpTitleRow is the screen row of the help's title.
func helpTitleRow(t *testing.T, d *tuitest.Driver) int {
	t.Helper()
	for i, r := range strings.Split(d.Screen(), "\n") {
		if strings.HasPrefix(r, "▌ Keys") {
			return i
		}
	}
	t.Fatalf("the help is not open:\n%s", d.Screen())
	return 0
}

// mapKeys lists a set's members.
func mapKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	return out
}
