package tuitest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/gen"
	"ohwatch/internal/fixtures"
	"ohwatch/internal/termtest"
	"ohwatch/internal/upstream"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/text"
)

// Trajectory loads a real recorded conversation from the shared testdata
// (events/*.json in file order) into a fresh log.
func Trajectory(tb testing.TB, name string) *reducer.Log {
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
		log.Append(Decode(tb, raw))
	}
	return log
}

// Generated returns a log of n generated events.
func Generated(tb testing.TB, n int, seed int64) *reducer.Log {
	tb.Helper()
	log := reducer.NewLog(nil, 0)
	log.Append(GeneratedEvents(tb, n, seed)...)
	return log
}

// GeneratedEvents decodes n generated events.
func GeneratedEvents(tb testing.TB, n int, seed int64) []model.Event {
	tb.Helper()
	evs := make([]model.Event, 0, n)
	for raw := range gen.Events(gen.Options{Events: n, Seed: seed}) {
		evs = append(evs, Decode(tb, raw))
	}
	return evs
}

// Decode decodes one raw event, failing the test when it is not JSON.
func Decode(tb testing.TB, raw []byte) model.Event {
	tb.Helper()
	ev, err := model.Decode(raw)
	if err != nil {
		tb.Fatalf("decode %.80s: %v", raw, err)
	}
	return ev
}

// FixtureLog decodes hand-written raw events (one JSON object per string).
func FixtureLog(tb testing.TB, raws ...string) *reducer.Log {
	tb.Helper()
	log := reducer.NewLog(nil, 0)
	for _, r := range raws {
		log.Append(Decode(tb, []byte(r)))
	}
	return log
}

// KeyMsg builds the key press a terminal sends for a key name as
// tea.KeyPressMsg.String() spells it ("j", "G", "enter", "ctrl+d").
func KeyMsg(name string) tea.KeyPressMsg {
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

// InBubble runs f in a synctest bubble: the ticks a view starts (a
// flash's expiry, a refresh's next run) and runCmd's wait for a command
// that does not answer run on the bubble's clock, which moves only when
// every goroutine of the test waits, so a test does not wait them out in
// real time. Before it returns, the clock is moved past the longest tick
// so that the commands still waiting on one end.
func InBubble(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		f(t)
		time.Sleep(time.Minute)
	})
}

// WindowSize is the message a resize sends.
func WindowSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// AssertScreenShape checks that a screen is exactly w×h cells: no line
// wraps into the next, none is missing.
func AssertScreenShape(t *testing.T, out string, w, h int) {
	t.Helper()
	AssertShapeUnder(t, text.Cells{}, out, w, h)
}

// AssertShapeUnder is assertScreenShape with the cells counted as cells
// count them.
func AssertShapeUnder(t *testing.T, cells text.Cells, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Fatalf("screen has %d lines, want %d", len(lines), h)
	}
	for k, l := range lines {
		if got := cells.Width(l); got != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", k, got, w, l)
		}
	}
}

// GoldenSizes are the screens every golden scenario is drawn at: the
// roomy layout and the smallest supported terminal.
var GoldenSizes = [][2]int{{160, 48}, {80, 24}}

// Profiles are the colour profiles a terminal can report, NO_COLOR's
// ASCII included.
var Profiles = []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI, colorprofile.ASCII}

// Relabel gives a copy of an event new ids, and points its references (the
// parent, the action an observation answers, the tool call) at the copies,
// so a repeated conversation pairs its actions and results as the original.
func Relabel(ev model.Event, suffix string) model.Event {
	ev.ID += suffix
	if ev.ParentID != "" {
		ev.ParentID += suffix
	}
	switch b := ev.Body.(type) {
	case *model.Action:
		c := *b
		c.ToolCallID += suffix
		c.LLMResponseID += suffix
		ev.Body = &c
	case *model.Observation:
		c := *b
		c.ActionID += suffix
		c.ToolCallID += suffix
		ev.Body = &c
	case *model.UserReject:
		c := *b
		c.ActionID += suffix
		c.ToolCallID += suffix
		ev.Body = &c
	case *model.AgentError:
		c := *b
		c.ToolCallID += suffix
		ev.Body = &c
	case *model.Message:
		c := *b
		c.LLMResponseID += suffix
		ev.Body = &c
	}
	return ev
}

// StateUpdate is a per-field ConversationStateUpdateEvent.
func StateUpdate(id, ts, key string, value any) string {
	v, _ := json.Marshal(value)
	return fmt.Sprintf(`{"id":%q,"timestamp":%q,"source":"environment","key":%q,"value":%s,"kind":"ConversationStateUpdateEvent"}`,
		id, ts, key, v)
}

// FullState is a full_state snapshot with an execution status.
func FullState(id, ts, status string) string {
	return fmt.Sprintf(`{"id":%q,"timestamp":%q,"source":"environment","key":"full_state","value":{"execution_status":%q},"kind":"ConversationStateUpdateEvent"}`,
		id, ts, status)
}

// WaitingLog is the real confirmation-mode recording up to its HIGH-risk
// action, then the status update that puts it in waiting_for_confirmation.
func WaitingLog(tb testing.TB) *reducer.Log {
	tb.Helper()
	return WaitingLogOn(tb, Twin)
}

// WaitingLogOn is waitingLog on the recording load reads.
func WaitingLogOn(tb testing.TB, load Loader) *reducer.Log {
	tb.Helper()
	full := load(tb, "confirmation_mode")
	log := reducer.NewLog(nil, 0)
	for i := 0; i <= 6; i++ {
		log.Append(full.Event(i))
	}
	log.Append(Decode(tb, []byte(StateUpdate("c0000000-0000-4000-8000-000000000001",
		"2026-01-28T14:33:34.400000", "execution_status", "waiting_for_confirmation"))))
	return log
}

// ErrorLog is the real hello-world recording followed by an agent error,
// a failed command, and a conversation error that ends the run.
func ErrorLog(tb testing.TB) *reducer.Log {
	tb.Helper()
	return ErrorLogOn(tb, Twin)
}

// ErrorLogOn is errorLog on the recording load reads.
func ErrorLogOn(tb testing.TB, load Loader) *reducer.Log {
	tb.Helper()
	log := load(tb, "simple_echo_hello_world")
	extra := []string{
		`{"id":"e0000000-0000-4000-8000-000000000001","timestamp":"2026-01-27T03:56:30.000000","source":"agent","thought":[],"action":{"command":"cat missing.txt","is_input":false,"reset":false,"kind":"TerminalAction"},"tool_name":"terminal","tool_call_id":"toolu_err1","tool_call":{"id":"toolu_err1","name":"terminal","arguments":"{}","origin":"completion"},"llm_response_id":"resp-err-1","security_risk":"LOW","summary":"Show a file that does not exist","kind":"ActionEvent"}`,
		`{"id":"e0000000-0000-4000-8000-000000000002","timestamp":"2026-01-27T03:56:31.250000","source":"environment","tool_name":"terminal","tool_call_id":"toolu_err1","action_id":"e0000000-0000-4000-8000-000000000001","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"cat: missing.txt: No such file or directory"}],"is_error":true,"command":"cat missing.txt","exit_code":1,"timeout":false,"metadata":{"exit_code":1}},"kind":"ObservationEvent"}`,
		`{"id":"e0000000-0000-4000-8000-000000000003","timestamp":"2026-01-27T03:56:33.000000","source":"agent","thought":[],"action":null,"tool_name":"terminal","tool_call_id":"toolu_err2","tool_call":{"id":"toolu_err2","name":"terminal","arguments":"{not json","origin":"completion"},"llm_response_id":"resp-err-2","security_risk":"UNKNOWN","kind":"ActionEvent"}`,
		`{"id":"e0000000-0000-4000-8000-000000000004","timestamp":"2026-01-27T03:56:33.100000","source":"agent","tool_name":"terminal","tool_call_id":"toolu_err2","error":"Error validating args {not json for tool 'terminal'","classification":{"kind":"agent_action","retryable":false,"user_action":"none"},"kind":"AgentErrorEvent"}`,
		`{"id":"e0000000-0000-4000-8000-000000000005","timestamp":"2026-01-27T03:56:40.000000","source":"environment","code":"MaxIterationsReached","detail":"Agent reached maximum iterations limit (3).","kind":"ConversationErrorEvent"}`,
	}
	for _, r := range extra {
		log.Append(Decode(tb, []byte(r)))
	}
	return log
}

// HostileLog is a recording with hostile text in every text field.
func HostileLog(tb testing.TB) *reducer.Log {
	tb.Helper()
	h, _ := json.Marshal(HostileText)
	hs := string(h)
	raws := []string{
		`{"id":"h1","timestamp":"2026-01-27T03:56:24.000000","source":"agent","system_prompt":{"type":"text","text":` + hs + `},"tools":[{"kind":"TerminalTool","title":` + hs + `}],"kind":"SystemPromptEvent"}`,
		`{"id":"h2","timestamp":"2026-01-27T03:56:25.000000","source":` + hs + `,"llm_message":{"role":"user","content":[{"type":"text","text":` + hs + `}]},"kind":"MessageEvent"}`,
		`{"id":"h3","timestamp":"2026-01-27T03:56:26.000000","source":"agent","thought":[{"type":"text","text":` + hs + `}],"action":{"command":` + hs + `,"kind":"TerminalAction"},"tool_name":` + hs + `,"tool_call_id":"t1","tool_call":{"id":"t1","name":"terminal","arguments":"{}","origin":"completion"},"llm_response_id":"r1","security_risk":"HIGH","summary":` + hs + `,"kind":"ActionEvent"}`,
		`{"id":"h4","timestamp":"2026-01-27T03:56:27.000000","source":"environment","tool_name":"terminal","tool_call_id":"t1","action_id":"h3","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":` + hs + `}],"command":` + hs + `,"exit_code":0},"kind":"ObservationEvent"}`,
		`{"id":"h5","timestamp":"2026-01-27T03:56:28.000000","source":"agent","thought":[],"action":{"command":"plan","task_list":[{"title":` + hs + `,"notes":` + hs + `,"status":"in_progress"}],"kind":"TaskTrackerAction"},"tool_name":"task_tracker","tool_call_id":"t2","tool_call":{"id":"t2","name":"task_tracker","arguments":"{}","origin":"completion"},"llm_response_id":"r2","security_risk":"LOW","summary":` + hs + `,"kind":"ActionEvent"}`,
		`{"id":"h6","timestamp":"2026-01-27T03:56:29.000000","source":"environment","tool_name":"task_tracker","tool_call_id":"t2","action_id":"h5","observation":{"kind":"TaskTrackerObservation","content":[{"type":"text","text":` + hs + `}],"command":"plan","task_list":[{"title":` + hs + `,"notes":` + hs + `,"status":"todo"}]},"kind":"ObservationEvent"}`,
		`{"id":"h7","timestamp":"2026-01-27T03:56:30.000000","source":"agent","tool_name":` + hs + `,"tool_call_id":"t3","error":` + hs + `,"kind":"AgentErrorEvent"}`,
		`{"id":"h8","timestamp":"2026-01-27T03:56:31.000000","source":"environment","code":` + hs + `,"detail":` + hs + `,"kind":"ConversationErrorEvent"}`,
		`{"id":"h9","timestamp":"2026-01-27T03:56:32.000000","source":"agent","kind":` + hs + `,` + hs + `:` + hs + `}`,
		StateUpdate("h10", "2026-01-27T03:56:33.000000", "execution_status", HostileText),
		`{"id":"h11","timestamp":"2026-01-27T03:56:34.000000","source":"agent","llm_message":{"role":"assistant","content":[{"type":"text","text":` + hs + `}],"reasoning_content":` + hs + `},"kind":"MessageEvent"}`,
	}
	log := reducer.NewLog(nil, 0)
	for _, r := range raws {
		log.Append(Decode(tb, []byte(r)))
	}
	return log
}

// Recorded loads one of the project's own recordings (a fixtures name,
// events/*.json in file order) into a fresh log. The CLI-shaped ones
// (fixtures.Shapes) stand in, on every clone, for the upstream CLI
// trajectories of the same shape that trajectory reads.
func Recorded(tb testing.TB, name string) *reducer.Log {
	tb.Helper()
	dir := filepath.Join(fixtures.Path(tb, name), "events")
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
		log.Append(Decode(tb, raw))
	}
	return log
}

// Loader reads a recording by its upstream trajectory name: trajectory
// reads the upstream recording itself, twin the project's own recording of
// the same shape.
type Loader func(tb testing.TB, name string) *reducer.Log

// twins names, for each upstream CLI trajectory, the project's recording
// that reproduces its shape.
var twins = map[string]string{
	"simple_echo_hello_world":             fixtures.Echo,
	"confirmation_mode":                   fixtures.Confirm,
	"creating_agent_plan":                 fixtures.Plan,
	"cli447_hi_followup_iterative_case_a": fixtures.Critic,
}

// Twin is the project's own recording of the shape of the upstream
// trajectory name.
func Twin(tb testing.TB, name string) *reducer.Log {
	tb.Helper()
	own, ok := twins[name]
	if !ok {
		tb.Fatalf("no own recording of the shape of %s", name)
	}
	return Recorded(tb, own)
}

// Sources are the two recordings a golden test with upstream goldens runs
// on: the upstream trajectory (skipped on a bare clone) and its twin on the
// project's own recordings, whose goldens carry the "own_" prefix.
var Sources = []struct {
	Prefix string
	Load   Loader
}{{"", Trajectory}, {"own_", Twin}}

// TermWaiter waits for text that one step alone puts on the terminal of a
// test program; 5 s is only how long before the test fails.
type TermWaiter struct {
	T  *testing.T
	Tm *termtest.Program
}

func (w *TermWaiter) Wait(what ...string) {
	w.T.Helper()
	w.Tm.WaitFor(w.T, 5*time.Second, what...)
}

// Frames runs one frame per iteration and reports, beside the wall time,
// the CPU time of the frame's own thread (cpu-ms/frame): on a loaded
// machine it counts the work, not the wait for a core.
func Frames(b *testing.B, frame func(i int)) {
	b.ReportAllocs()
	defer LockThread()()
	c0, n := ThreadCPU(), 0
	for b.Loop() {
		frame(n)
		n++
	}
	if c := ThreadCPU() - c0; c > 0 && n > 0 {
		b.ReportMetric(float64(c.Microseconds())/1000/float64(n), "cpu-ms/frame")
	}
}

// tickFunc and fleetFeedFunc name the closures of a tick (tea.Tick) and of
// a fleet's wait on its feed: a command is told by the function its
// closure belongs to, not by a timeout.
var (
	TickFunc      = regexp.MustCompile(`(^|\.)Tick\.func\d+$`)
	fleetFeedFunc = regexp.MustCompile(`\(\*Fleet\)\.waitFeed\.func\d+$`)
)

// FuncOf names the function a command runs.
func FuncOf(cmd tea.Cmd) string {
	if f := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()); f != nil {
		return f.Name()
	}
	return ""
}

// IsTick reports whether cmd waits for a timer.
func IsTick(cmd tea.Cmd) bool { return TickFunc.MatchString(FuncOf(cmd)) }

// IsFleetFeedWait reports whether cmd is a fleet's wait on its feed.
func IsFleetFeedWait(cmd tea.Cmd) bool { return fleetFeedFunc.MatchString(FuncOf(cmd)) }

// Ready reports whether a receive on ch would not block: something is
// queued on it, or it is closed. A closed channel is told by a receive
// that takes nothing; a test whose feed has a sender blocked on it (an
// unbuffered feed fed by a goroutine) would lose that batch here, so it
// fails instead: such a feed must be buffered.
func Ready[T any](ch <-chan T) bool {
	if ch == nil {
		return false
	}
	if len(ch) > 0 {
		return true
	}
	select {
	case _, ok := <-ch:
		if ok {
			panic("tui tests: a feed with a sender waiting on it: buffer the feed")
		}
		return true
	default:
		return false
	}
}

// cmdAnswerWait bounds the wait for a command that is neither a tick nor a
// feed wait: it answers in milliseconds, so one that has not answered in
// this long is a bug, reported as such rather than taken for a tick.
const cmdAnswerWait = time.Minute

// AnswerOf runs cmd, which must answer, and returns its message.
func AnswerOf(tb testing.TB, cmd tea.Cmd) tea.Msg {
	tb.Helper()
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		return msg
	case <-time.After(cmdAnswerWait):
		tb.Fatalf("a command (not a tick, not a feed wait) did not answer in %v: %s", cmdAnswerWait, FuncOf(cmd))
		return nil
	}
}

// HostileText carries everything that could drive a terminal: CSI and OSC
// sequences (an OSC 52 clipboard write), a carriage return, C1 controls,
// and bidi overrides.
const HostileText = "safe\x1b[2J\x1b]52;c;ZXZpbA==\x07\r\u202egnp.exe\u009b31m\u0085\x1b]0;title\x07\u2066x\u2069end"
