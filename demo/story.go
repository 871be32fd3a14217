package demo

import (
	"strconv"
	"strings"
	"time"

	"ohwatch/gen"
	"ohwatch/model"
)

// story is the demo's script runner: a gen.Builder plus the repository's
// files and the task list, with one method per kind of agent step. Every
// such method makes the LLM call (and its stats update) before the events
// it causes, as the agent-server does.
type story struct {
	b      *gen.Builder
	events [][]byte
	files  map[string]string
	tasks  []model.Task
	// rejectPush tells the script to take the branch in which the user
	// rejects the force push; pushID is that action's id and branchAt the
	// index of the first event after it stopped for confirmation.
	rejectPush bool
	pushID     string
	branchAt   int
}

func newStory() *story {
	env := gen.Environment{
		WorkingDir:         workDir,
		Username:           "openhands",
		Hostname:           "runtime-7d4b9c6f58-k2m8q",
		Model:              "litellm_proxy/anthropic/claude-sonnet-4-5-20250929",
		CondenserModel:     "litellm_proxy/anthropic/claude-haiku-4-5-20251001",
		ConfirmationPolicy: "ConfirmRisky",
	}
	start := time.Date(2026, time.November, 18, 14, 2, 11, 412907000, time.UTC)
	return &story{
		b: gen.NewBuilder(20261118, start, env),
		files: map[string]string{
			cachePath:     cacheGo,
			cacheTestPath: cacheTestGo,
			readmePath:    readmeMD,
		},
	}
}

func (s *story) emit(evs ...[]byte) { s.events = append(s.events, evs...) }

// wait moves the clock by ms milliseconds (a tool running, a user typing).
func (s *story) wait(ms int) { s.b.Advance(time.Duration(ms) * time.Millisecond) }

// The script states latencies as a real run would show them; the demo is
// paced tighter so that a replay at recorded speed lasts about two minutes.
// LLM calls keep their order of magnitude (1 to 2.5 s) and tool runs
// are shortened to 60%.
func llmPace(ms int) time.Duration {
	return time.Duration(1000+(ms-900)*55/100) * time.Millisecond
}

func toolPace(ms int) int { return ms * 6 / 10 }

// llm is one agent LLM call taking about ms milliseconds and producing
// completion tokens; its stats update follows at once.
func (s *story) llm(ms, completion int, thought, reasoning string) *gen.Response {
	r := s.b.CallLLM(llmPace(ms), completion, thought, reasoning)
	s.emit(s.b.Stats())
	return r
}

// run is a terminal call and its result after toolMs milliseconds.
func (s *story) run(r *gen.Response, cmd string, timeout int, summary string, toolMs int, output string, exit int) {
	a := s.b.Terminal(r, cmd, timeout, summary, gen.RiskLow)
	s.emit(a.Raw)
	s.wait(toolPace(toolMs))
	s.emit(s.b.TerminalResult(a, output, exit))
}

// edit replaces oldStr by newStr in path and keeps the new file.
func (s *story) edit(r *gen.Response, path, oldStr, newStr, summary string) {
	if !strings.Contains(s.files[path], oldStr) {
		panic("demo script: edit does not apply to " + path) // caught by the tests
	}
	a := s.b.StrReplace(r, path, oldStr, newStr, summary)
	s.emit(a.Raw)
	s.wait(60)
	ev, after := s.b.StrReplaceResult(a, s.files[path])
	s.files[path] = after
	s.emit(ev)
}

// create writes a new file.
func (s *story) create(r *gen.Response, path, text, summary string) {
	a := s.b.CreateFile(r, path, text, summary)
	s.emit(a.Raw)
	s.wait(50)
	s.files[path] = text
	s.emit(s.b.CreateFileResult(a))
}

// think logs a thought through the think tool.
func (s *story) think(r *gen.Response, thought, summary string) {
	a := s.b.Think(r, thought, summary)
	s.emit(a.Raw)
	s.wait(10)
	s.emit(s.b.ThinkResult(a))
}

// setTasks replaces the statuses of the task list ("t" todo, "p" in
// progress, "d" done, one letter per task) and sends the plan.
func (s *story) setTasks(r *gen.Response, statuses, summary string) {
	for i := range s.tasks {
		switch statuses[i] {
		case 'd':
			s.tasks[i].Status = "done"
		case 'p':
			s.tasks[i].Status = "in_progress"
		default:
			s.tasks[i].Status = "todo"
		}
	}
	a := s.b.Plan(r, s.tasks, summary)
	s.emit(a.Raw)
	s.wait(15)
	s.emit(s.b.PlanResult(a))
}

// status is a per-field execution_status update.
func (s *story) status(st string) { s.emit(s.b.Status(st)) }

// call is one terminal command of a parallel batch: its command, summary,
// soft timeout, run time and result.
type call struct {
	cmd, summary string
	timeout, ms  int
	out          string
	exit         int
}

// runAll is one LLM response making several terminal calls at once: the
// actions share the response id and their results follow in order.
func (s *story) runAll(r *gen.Response, calls ...call) {
	actions := make([]gen.Action, len(calls))
	for i, c := range calls {
		actions[i] = s.b.Terminal(r, c.cmd, c.timeout, c.summary, gen.RiskLow)
		s.emit(actions[i].Raw)
	}
	for i, c := range calls {
		s.wait(toolPace(c.ms))
		s.emit(s.b.TerminalResult(actions[i], c.out, c.exit))
	}
}

// viewAll is one LLM response reading several whole files at once.
func (s *story) viewAll(r *gen.Response, paths ...string) {
	actions := make([]gen.Action, len(paths))
	for i, p := range paths {
		actions[i] = s.b.ViewFile(r, p, 0, 0, "Read "+strings.TrimPrefix(p, workDir+"/"))
		s.emit(actions[i].Raw)
	}
	for i, p := range paths {
		s.wait(30)
		s.emit(s.b.ViewFileResult(actions[i], s.files[p]))
	}
}

// viewRange reads lines [from, to] of a file.
func (s *story) viewRange(r *gen.Response, path string, from, to int, summary string) {
	a := s.b.ViewFile(r, path, from, to, summary)
	s.emit(a.Raw)
	s.wait(30)
	s.emit(s.b.ViewFileResult(a, s.files[path]))
}

// viewTasks asks the task tracker for the current list.
func (s *story) viewTasks(r *gen.Response, summary string) {
	a := s.b.ViewTasks(r, summary)
	s.emit(a.Raw)
	s.wait(10)
	s.emit(s.b.ViewTasksResult(a, s.tasks))
}

// grep is `grep -n` of pattern over one of the story's files, as the shell
// would print it for name.
func (s *story) grep(path, name, pattern string) string {
	var out []string
	for i, line := range strings.Split(s.files[path], "\n") {
		if strings.Contains(line, pattern) {
			out = append(out, name+":"+strconv.Itoa(i+1)+":"+line)
		}
	}
	return strings.Join(out, "\n")
}

// lineOf is the 1-based line of the first line of path containing text.
func (s *story) lineOf(path, text string) int {
	for i, line := range strings.Split(s.files[path], "\n") {
		if strings.Contains(line, text) {
			return i + 1
		}
	}
	return 0
}

// raceReport is the race detector's report for the concurrency test, with
// the line numbers of the files as they stand.
func (s *story) raceReport() string {
	line := func(path, text string) string { return strconv.Itoa(s.lineOf(path, text)) }
	return strings.NewReplacer(
		// Get comes before Set, so the first MoveToFront is Get's.
		"{GET_MOVE}", line(cachePath, "\tc.ll.MoveToFront(el)"),
		"{GET_MAP}", line(cachePath, "\tel, ok := c.items[key]"),
		"{SET_PUSH}", line(cachePath, "el := c.ll.PushFront("),
		"{SET_MAP}", line(cachePath, "c.items[key] = el"),
		"{T_SET}", line(cacheTestPath, "\t\t\t\tc.Set(k, i)"),
		"{T_GET}", line(cacheTestPath, "\t\t\t\tc.Get(k)"),
		"{T_GO}", line(cacheTestPath, "\t\tgo func(g int) {"),
	).Replace(raceOutput)
}
