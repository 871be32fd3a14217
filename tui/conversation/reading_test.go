package conversation

import (
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"

	"ohwatch/internal/fixtures"
	"ohwatch/model"
	"ohwatch/theme"

	"ohwatch/internal/sanitize"
	"ohwatch/reducer"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
	"ohwatch/tui/text"
)

// readingScenarios are the screens of the reading aids: time modes, side
// panes sized to their content, the inspector's markdown and wrapped JSON.
func readingScenariosOn(load tuitest.Loader) []scenario {
	// replayOf is a recording from ../shared/testdata opened as replay does.
	replayOf := func(t *testing.T, name, title string, w, h int) *Conversation {
		return newModel(Options{Log: load(t, name), Title: title, Source: "replay trajectories/" + name}, w, h)
	}
	return []scenario{
		{"gap_times", func(t *testing.T, w, h int) *Conversation {
			m := replayOf(t, "creating_agent_plan", "creating agent plan", w, h)
			m, _ = press(t, m, "t", "t")
			return m
		}},
		{"raw_json_wrapped", func(t *testing.T, w, h int) *Conversation {
			m := replayOf(t, "simple_echo_hello_world", "hello world", w, h)
			m, _ = press(t, m, "enter", "r")
			return m
		}},
		{"raw_json_sideways", func(t *testing.T, w, h int) *Conversation {
			m := replayOf(t, "simple_echo_hello_world", "hello world", w, h)
			m, _ = press(t, m, "enter", "r", "w", "right")
			return m
		}},
		{"markdown_message", func(t *testing.T, w, h int) *Conversation {
			m := replayOf(t, "creating_agent_plan", "creating agent plan", w, h)
			m, _ = press(t, m, "G", "enter")
			return m
		}},
		{"finish_message", func(t *testing.T, w, h int) *Conversation {
			return finishInspected(t, w, h)
		}},
		{"export_path_prompt", func(t *testing.T, w, h int) *Conversation {
			m := newModel(Options{Log: load(t, "simple_echo_hello_world"), Title: "hello world",
				Source: "replay trajectories/simple_echo_hello_world",
				Export: func(f, p string) (string, error) { return p, nil },
				ExportPath: func(f string) string {
					return "/home/ann/.local/state/ohwatch/exports/hello-world-20260127-035617." + f
				}}, w, h)
			m, _ = press(t, m, "e", "m")
			return m
		}},
		{"tasks_pane_focused", func(t *testing.T, w, h int) *Conversation {
			m := newModel(Options{Log: demoLog(t, -1), Title: "demo", Source: "replay demo"}, w, h)
			m = jumpTo(t, m, "151")
			m, _ = press(t, m, "4")
			return m
		}},
		{"long_conversation_times", func(t *testing.T, w, h int) *Conversation {
			m := newModel(Options{Log: spreadLogOn(t, load, 4*24*time.Hour+7*time.Hour+12*time.Minute), Title: "four days",
				Source: "replay ./long"}, w, h)
			m, _ = press(t, m, "G")
			return m
		}},
	}
}

func TestGoldenReading(t *testing.T) { runGoldens(t, readingScenariosOn(tuitest.Trajectory)) }

// TestGoldenReadingOwn is TestGoldenReading's screens that read a
// recording, on the project's own recordings of the same shapes.
func TestGoldenReadingOwn(t *testing.T) { runGoldens(t, readers(readingScenariosOn(tuitest.Twin))) }

// spreadLog is the real hello-world recording with its events moved so
// the last one is span after the first: a conversation that lasts days.
func spreadLog(t *testing.T, span time.Duration) *reducer.Log {
	t.Helper()
	return spreadLogOn(t, tuitest.Twin, span)
}

// spreadLogOn is spreadLog on the recording load reads.
func spreadLogOn(t *testing.T, load tuitest.Loader, span time.Duration) *reducer.Log {
	t.Helper()
	src := load(t, "simple_echo_hello_world")
	log := reducer.NewLog(nil, 0)
	n := src.Len()
	start := src.Event(0).Time
	for i := 0; i < n; i++ {
		ev := src.Event(i)
		ev.Time = start.Add(span * time.Duration(i) / time.Duration(n-1))
		log.Append(ev)
	}
	return log
}

func TestTimeModesCycle(t *testing.T) {
	t.Parallel()
	log := tuitest.Recorded(t, fixtures.Plan)
	m := newModel(Options{Log: log}, 160, 48)
	// The events pane's title names the mode (relative times, the
	// default, go unnamed).
	for _, mode := range []string{"absolute times", "gap times", ""} {
		m, _ = press(t, m, "t")
		title := lineWith(screen(m), "Events ·")
		for _, other := range []string{"absolute times", "gap times"} {
			if strings.Contains(title, other) != (other == mode) {
				t.Fatalf("t: want %q, the title says %q", mode, title)
			}
		}
	}
	m, _ = press(t, m, "t", "t", "j", "j")
	gap := tui.GapText(log.Event(2).Time, log.Event(1).Time)
	if !strings.HasPrefix(gap, "+") || !strings.Contains(screen(m), gap) || !strings.Contains(screen(m), "gap times") {
		t.Fatalf("gap mode does not show the event's own gap %q:\n%s", gap, screen(m))
	}
}

func TestTimesPastADay(t *testing.T) {
	t.Parallel()
	span := 4*24*time.Hour + 7*time.Hour + 12*time.Minute
	for _, tt := range []struct {
		w    int
		want string
	}{
		{160, "+4d07h12m"}, // room: the whole span
		{80, "+4d07h"},     // the narrow column keeps the list's offsets
	} {
		m := newModel(Options{Log: spreadLog(t, span)}, tt.w, 24)
		m, _ = press(t, m, "G")
		row := lineWith(screen(m), "▶")
		if !strings.Contains(row, tt.want) {
			t.Errorf("%d columns: last row %q lacks %q", tt.w, row, tt.want)
		}
		if tt.w == 80 && strings.Contains(row, "+4d07h12m") {
			t.Errorf("80 columns: the wide form does not fit: %q", row)
		}
	}
	// Short conversations keep the narrow column at any width: a row is
	// drawn as below the width that could widen it.
	wide := lineWith(screen(newModel(Options{Log: tuitest.Recorded(t, fixtures.Echo)}, 160, 48)), " #1 ")
	narrow := lineWith(screen(newModel(Options{Log: tuitest.Recorded(t, fixtures.Echo)}, wideTimeFrom-1, 48)), " #1 ")
	if i := strings.Index(narrow, "agent"); i < 0 || !strings.HasPrefix(wide, narrow[:i]) {
		t.Fatalf("a conversation of minutes widened the time column:\n%q\n%q", wide, narrow)
	}
	if got := tui.OffsetText(time.Unix(0, 0).Add(27*time.Hour+3*time.Minute), time.Unix(0, 0), true); got != "+1d03h03m" {
		t.Fatalf("offsetText past a day = %q", got)
	}
}

// lineWith returns the screen line that contains s.
func lineWith(screen, s string) string {
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, s) {
			return line
		}
	}
	return ""
}

func TestBookmarksWrapAndGoBack(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.Generated(t, 200, 3)}, 160, 48)
	var b []string // the events bookmarked, as the title names them
	for _, keys := range [][]string{{"j", "j", "m"}, {"j", "j", "j", "m"}, {"j", "j", "m"}} {
		m, _ = press(t, m, keys...)
		b = append(b, cursorOn(screen(m)))
	}
	marked := 0
	for _, l := range strings.Split(screen(m), "\n") {
		if r := []rune(l); len(r) > 1 && r[1] == '★' {
			marked++
		}
	}
	if n := marked; n != 3 {
		t.Fatalf("%d rows marked for bookmarks %v:\n%s", n, b, screen(m))
	}
	// From the last bookmark ' wraps to the first.
	m, _ = press(t, m, "'")
	mustCursorOn(t, screen(m), b[0])
	// " goes back, and wraps from the first to the last.
	m, _ = press(t, m, "\"")
	mustCursorOn(t, screen(m), b[2])
	m, _ = press(t, m, "\"")
	mustCursorOn(t, screen(m), b[1])
	if !strings.Contains(helpScreen(t, m), "previous bookmark") {
		t.Fatal("help does not list \"")
	}
}

// helpScreen is the full help as the ? key shows it.
func helpScreen(t *testing.T, m *Conversation) string {
	t.Helper()
	m, _ = send(m, tuitest.WindowSize(m.width, 200))
	m, _ = press(t, m, "?")
	return screen(m)
}

func TestFlashClearsOnNextAction(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: tuitest.ErrorLog(t)}, 160, 48)
	m, _ = press(t, m, "G", "]")
	if m.Flash == "" {
		t.Fatal("] at the end says nothing")
	}
	// A key bound to nothing keeps the message.
	m, _ = press(t, m, "Q")
	if m.Flash == "" {
		t.Fatal("an unbound key cleared the message")
	}
	m, _ = press(t, m, "k")
	if m.Flash != "" || strings.Contains(screen(m), "no next error") {
		t.Fatalf("the message outlived the next action: %q", m.Flash)
	}
	// An action with its own message replaces the old one.
	m, _ = press(t, m, "m")
	m, _ = press(t, m, "G", "]")
	if !strings.Contains(m.Flash, "no next error") {
		t.Fatalf("flash %q", m.Flash)
	}
}

func TestRawJSONNeverCutSilently(t *testing.T) {
	t.Parallel()
	for _, profile := range []colorprofile.Profile{colorprofile.NoTTY, colorprofile.TrueColor} {
		m := NewConversation(Options{Log: tuitest.Recorded(t, fixtures.Echo), Profile: profile})
		m, _ = send(m, tuitest.WindowSize(80, 24))
		m, _ = press(t, m, "enter", "r")
		// Every laid-out row is read, with its sequences, including the
		// rows beyond the screen: from the open inspector itself.
		in, _ := m.insp()
		lines, nodes := in.linesAt(78)
		if len(lines) != len(nodes) {
			t.Fatalf("%v: %d rows, %d nodes", profile, len(lines), len(nodes))
		}
		joined := ""
		for _, l := range lines {
			if w := m.Cells.Width(l); w > 78-rawGutter {
				t.Fatalf("%v: a wrapped row is %d cells: %q", profile, w, l)
			}
			if n := strings.Count(l, "\x1b["); n > 12 {
				t.Fatalf("%v: a row carries %d sequences", profile, n)
			}
			joined += strings.TrimSpace(ansi.Strip(l)) + " "
		}
		if !strings.Contains(joined, "Your primary role is to assist users") {
			t.Fatalf("%v: the system prompt's text is not all there", profile)
		}
		// Unwrapped, the long lines say they go on, and ←/→ move along them.
		m, _ = press(t, m, "w")
		if !strings.Contains(screen(m), "›") || !strings.Contains(screen(m), "unwrapped, col 1/") {
			t.Fatalf("%v: w does not unwrap with a marker:\n%s", profile, screen(m))
		}
		m, _ = press(t, m, "right", "right", "left")
		if out := screen(m); !strings.Contains(out, "unwrapped, col "+Itoa(sidewaysStep+1)+"/") || !strings.Contains(out, "‹") {
			t.Fatalf("%v: not scrolled sideways by one step:\n%s", profile, out)
		}
		m, _ = press(t, m, "w")
		if out := screen(m); strings.Contains(out, "unwrapped") || strings.Contains(out, "‹") || !strings.Contains(out, "· wrapped") {
			t.Fatalf("%v: w does not wrap again:\n%s", profile, out)
		}
	}
}

func TestRawFoldOnWrappedRow(t *testing.T) {
	t.Parallel()
	d := drive(t, Options{Log: tuitest.Recorded(t, fixtures.Echo)}, 80, 24)
	// Many more rows than the screen: the title says which it shows.
	d.Press("enter", "r").Shows("[raw JSON]", " 1-", `"source": "agent"`)
	// Fold the top-level object from its first row: one row is left.
	d.Press("enter").Shows("{…}").Hides(" 1-", `"source": "agent"`)
	if body := inspectorBody(t, d.Screen()); strings.TrimSpace(body[1]) != "" {
		t.Fatalf("fold leaves more than one row:\n%s", d.Screen())
	}
}

func TestSidePanesTakeWhatTheyNeed(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: demoLog(t, -1), Title: "demo"}, 160, 48)
	m = jumpTo(t, m, "151")
	l := m.layout()
	order, heights, frames := m.sideLayout(m.state(), &m.keys, l.side)
	for k, p := range order {
		if want := len(frames[k].lines) + 1; heights[k] != want {
			t.Errorf("%s: %d rows for %d lines", p.title(), heights[k], want-1)
		}
	}
	side := ""
	for _, line := range strings.Split(screen(m), "\n") {
		if cells := []rune(line); len(cells) > l.side.x {
			side += string(cells[l.side.x:]) + "\n"
		}
	}
	// The model name and a task's notes are whole, wrapped, not cut.
	for _, want := range []string{"sonnet-4-5-20250929 (agent)", "which key", "goes"} {
		if !strings.Contains(side, want) {
			t.Errorf("side column lacks %q:\n%s", want, side)
		}
	}
	if strings.Contains(side, "…") {
		t.Errorf("side column cuts a line:\n%s", side)
	}
	// A style open where a row wraps is closed on that row.
	for _, row := range wrapPaneLines(m.Cells, []string{m.styles.Muted.Render(strings.Repeat("word ", 30))}, 40) {
		if strings.Contains(row, "\x1b[") && !strings.HasSuffix(row, "\x1b[m") {
			t.Errorf("wrapped row leaves its style open: %q", row)
		}
	}
}

func TestSidePanesShareAShortColumn(t *testing.T) {
	t.Parallel()
	// With too little room every pane keeps its title and a line or two,
	// and what needs an answer (pending) gets its rows first.
	m := liveModel(t, tuitest.WaitingLog(t), 120, 30, Options{Controls: &tuitest.Controls{}})
	l := m.layout()
	order, heights, frames := m.sideLayout(m.state(), &m.keys, l.side)
	total := 0
	for k, p := range order {
		total += heights[k]
		if heights[k] < min(3, len(frames[k].lines)+1) {
			t.Errorf("%s: %d rows", p.title(), heights[k])
		}
		if p == panePending && heights[k] != len(frames[k].lines)+1 {
			t.Errorf("pending: %d rows for %d lines", heights[k], len(frames[k].lines))
		}
	}
	if total > l.side.h {
		t.Fatalf("side panes take %d rows of %d", total, l.side.h)
	}
}

// sgrRun matches one SGR (colour and attribute) sequence.
var sgrRun = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// FuzzWrapPaneLines: whatever the text and its styles, every wrapped row
// fits the width, no style is left open at a row's end, and no visible
// character is lost.
func FuzzWrapPaneLines(f *testing.F) {
	f.Add("  Fill the cache past capacity and check which key goes", 20, true)
	f.Add("model     litellm_proxy/anthropic/claude-sonnet-4-5-20250929 (agent)", 30, false)
	f.Add("👩‍👩‍👧‍👦 日本語のテキスト wide", 7, true)
	var cells text.Cells // wcwidth
	f.Fuzz(func(t *testing.T, text string, width int, styled bool) {
		width = 4 + abs(width)%120
		text = sanitize.Line(text)
		line := text
		if styled {
			line = theme.New(true, colorprofile.TrueColor).Accent.Render(text)
		}
		rows := wrapPaneLines(cells, []string{line}, width)
		var kept strings.Builder
		for _, r := range rows {
			// A single cluster wider than the room is never cut inside.
			single := uniseg.GraphemeClusterCount(strings.TrimSpace(ansi.Strip(r))) == 1
			if w := cells.Width(r); w > width && !single {
				t.Fatalf("row of %d cells at width %d: %q", w, width, r)
			}
			seqs := sgrRun.FindAllString(r, -1)
			if n := len(seqs); n > 0 && seqs[n-1] != "\x1b[m" && seqs[n-1] != "\x1b[0m" {
				t.Fatalf("row leaves a style open: %q", r)
			}
			kept.WriteString(ansi.Strip(r))
		}
		// Spaces (and a mark on a space) may go at a break; nothing else.
		strip := func(s string) string {
			return strings.Map(func(r rune) rune {
				if unicode.IsSpace(r) || unicode.Is(unicode.M, r) {
					return -1
				}
				return r
			}, s)
		}
		if strip(kept.String()) != strip(text) {
			t.Fatalf("text changed by wrapping:\n%q\n%q", strip(text), strip(kept.String()))
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// finishInspected is the demo with the inspector open on the agent's
// finish action, whose message is markdown.
func finishInspected(t *testing.T, w, h int) *Conversation {
	t.Helper()
	log := demoLog(t, -1)
	at := -1
	for i := 0; i < log.Len(); i++ {
		if a, ok := log.Event(i).Body.(*model.Action); ok && a.ToolName == "finish" {
			at = i
		}
	}
	if at < 0 {
		t.Fatal("the demo has no finish action")
	}
	m := newModel(Options{Log: log, Title: "demo", Source: "replay demo"}, w, h)
	m = jumpTo(t, m, Itoa(at+1))
	m, _ = press(t, m, "enter")
	return m
}

// TestFinishMessageReads: the finish message is rendered as markdown (no
// asterisks around bold words) and every prose line of the inspector is
// wrapped between words, at the smallest screen.
func TestFinishMessageReads(t *testing.T) {
	t.Parallel()
	m := finishInspected(t, 80, 24)
	var all []string
	for {
		out := ansi.Strip(screen(m))
		all = append(all, out)
		if !strings.Contains(out, "/") || len(all) > 10 {
			break
		}
		before := out
		m, _ = press(t, m, "pgdown")
		if ansi.Strip(screen(m)) == before {
			break
		}
	}
	text := strings.Join(all, "\n")
	if !strings.Contains(text, "Eviction bug") || strings.Contains(text, "**Eviction bug**") {
		t.Fatalf("the finish message is not rendered as markdown:\n%s", text)
	}
	for _, split := range []string{"recentl\n", "sync.Mute\n", "sync.\n"} {
		if strings.Contains(strings.ReplaceAll(text, " \n", "\n"), split) {
			t.Fatalf("a word is cut at the pane's edge (%q):\n%s", split, text)
		}
	}
}

// TestSelectedRowKeepsItsMark: the cursor has its own column, so a
// bookmarked row keeps its ★ while it is selected.
func TestSelectedRowKeepsItsMark(t *testing.T) {
	t.Parallel()
	m := newModel(Options{Log: demoLog(t, 40)}, 80, 24)
	g := theme.New(true, colorprofile.NoTTY).Glyphs
	m, _ = press(t, m, "j", "m")
	row := lineWith(screen(m), g.Cursor)
	if !strings.HasPrefix(row, g.Cursor+g.MarkBook) {
		t.Fatalf("the selected, bookmarked row lost its mark: %q", row)
	}
	m, _ = press(t, m, "j")
	if row := lineWith(screen(m), g.MarkBook); !strings.HasPrefix(row, " "+g.MarkBook) {
		t.Fatalf("the bookmarked row, not selected: %q", row)
	}
}

// TestTimeGoingBackwardsIsMarked: an event stamped before the one above it
// keeps its recorded time, marked, in the relative and absolute modes.
func TestTimeGoingBackwardsIsMarked(t *testing.T) {
	t.Parallel()
	src := spreadLog(t, 10*time.Minute)
	log := reducer.NewLog(nil, 0)
	for i := 0; i < src.Len(); i++ {
		ev := src.Event(i)
		if i == 3 {
			ev.Time = src.Event(2).Time.Add(-2 * time.Second)
		}
		log.Append(ev)
	}
	m := newModel(Options{Log: log}, 160, 48)
	for _, mode := range []string{"relative", "absolute"} {
		out := screen(m)
		if row := lineWith(out, " #4 "); !strings.Contains(row, timeBackwards) {
			t.Fatalf("%s: the earlier time is not marked: %q", mode, row)
		}
		if row := lineWith(out, " #3 "); strings.Contains(row, timeBackwards) {
			t.Fatalf("%s: an ordered time is marked: %q", mode, row)
		}
		m, _ = press(t, m, "t")
	}
}

// TestFailedCommandIsMarked: a terminal observation that exited non-zero
// is marked as a failure in its row (the golden demo_midrun shows #137).
func TestFailedCommandIsMarked(t *testing.T) {
	t.Parallel()
	failed := func(c int) bool { return isError(&model.Event{Body: &model.Observation{ExitCode: &c}}) }
	if !failed(1) || failed(0) || failed(-1) {
		t.Fatal("exit 1 is a failure; exit 0 and a soft timeout (-1) are not")
	}
	m := newModel(Options{Log: demoLog(t, -1)}, 80, 24)
	m = jumpTo(t, m, "137")
	if row := lineWith(screen(m), "terminal: exit 1"); !strings.Contains(row, theme.New(true, colorprofile.NoTTY).Glyphs.Error) {
		t.Fatalf("the failed command's row: %q", row)
	}
}
