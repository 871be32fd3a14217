package gen

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"ohwatch/model"
)

// convo drives a Builder through a random but plausible conversation of an
// exact number of events: turns of agent steps (explore, view, edit, test,
// plan, think), with the occasional parallel call, validation error,
// confirmation, condensation and mid-run user message, ending with a
// FinishAction. It produces events a step at a time, so memory stays flat.
type convo struct {
	b     *Builder
	rng   *rand.Rand
	repo  *repo
	total int

	emitted int
	queue   [][]byte
	started bool

	stepsLeft int // steps before the current turn ends
	tasks     []model.Task
	failing   bool     // the tests fail until an edit lands
	lastEdit  lastEdit // the latest edit, for `git diff`
	created   int      // regression test files created so far

	askUser bool // Options.AskUser
	asked   bool // the question has been asked

	branches    int // navigations asked for
	branchesDue int // navigations made so far
	// rests are recent events on HEAD's path after which no action waits
	// for its result: the places a navigation goes back to.
	rests []string
}

// lastEdit is a file before and after the latest edit.
type lastEdit struct{ path, before, after string }

// wrapSize is the events the final step takes: the LLM call's stats, the
// FinishAction, its observation and execution_status=finished.
const wrapSize = 4

// minEvents is the shortest complete conversation: the system prompt, the
// user's request, running, and the final step. Shorter requests get a
// prefix of it.
const minEvents = 3 + wrapSize

// maxView is the condenser's max_size: past this many LLM-visible events,
// the older half is condensed.
const maxView = 240

func newConvo(o Options, keepCalls bool) *convo {
	start := o.Start
	if start.IsZero() {
		start = DefaultStart()
	}
	b := NewBuilder(o.Seed, start, DefaultEnvironment())
	if keepCalls {
		b.KeepCalls()
	}
	return &convo{b: b, rng: b.Rand(), repo: newRepo(), total: max(o.Events, minEvents), branches: max(o.Branches, 0), askUser: o.AskUser}
}

// next returns the next event; callers stop after total events.
func (c *convo) next() []byte {
	if len(c.queue) == 0 {
		c.fill()
	}
	ev := c.queue[0]
	c.queue[0] = nil
	c.queue = c.queue[1:]
	c.emitted++
	return ev
}

// abs is the absolute path of a repository file.
func (c *convo) abs(path string) string { return c.b.Env().WorkingDir + "/" + path }

func (c *convo) push(evs ...[]byte) { c.queue = append(c.queue, evs...) }

// fill queues the next step, choosing one that fits in the events left
// before the final step.
func (c *convo) fill() {
	if !c.started {
		c.started = true
		c.push(c.b.SystemPrompt(), c.b.User(pickString(c.rng, userRequests)), c.b.Status(model.StatusRunning))
		c.startTurn(c.total - 3 - wrapSize)
		return
	}
	budget := c.total - c.emitted - wrapSize
	if c.branches > 0 {
		defer c.markRest()
	}
	switch {
	case budget <= 0:
		c.wrap()
	case budget < 3:
		// Too little room for a tool step: the user chimes in while the
		// agent works, which needs no reply of its own.
		c.b.Advance(time.Duration(2+c.rng.IntN(20)) * time.Second)
		c.push(c.b.User(pickString(c.rng, userNudges)))
	case c.b.ViewLen() > maxView:
		c.condense()
	case c.stepsLeft <= 0 && budget >= 6:
		c.endTurn(budget)
	case c.askUser && !c.asked && budget >= 7:
		c.askStep()
	default:
		c.step(budget)
	}
}

// startTurn sets up a new turn; room is how many events it may queue
// before the final step's.
func (c *convo) startTurn(room int) {
	c.stepsLeft = 6 + c.rng.IntN(40)
	c.failing = true
	c.tasks = nil
	if c.stepsLeft >= 12 && room >= 3 {
		c.tasks = planFor(c.rng, 4+c.rng.IntN(3))
		c.planStep("Create a plan for the task")
	}
}

// llm makes an agent LLM call for a step and queues its stats update.
func (c *convo) llm(completion int, thought string) *Response {
	r := c.b.CallLLM(time.Duration(1200+c.rng.IntN(7000))*time.Millisecond, completion, thought, reasoningText(c.rng))
	c.push(c.b.Stats())
	return r
}

// toolTime moves the clock by a tool run's duration.
func (c *convo) toolTime(minMs, spreadMs int) {
	c.b.Advance(time.Duration(minMs+c.rng.IntN(spreadMs)) * time.Millisecond)
}

// step queues one agent step that fits in budget events.
func (c *convo) step(budget int) {
	c.stepsLeft--
	roll := c.rng.IntN(100)
	switch {
	case roll < 2:
		c.badCall()
	case roll < 3 && budget >= 5:
		c.riskyCommand()
	case roll < 9 && budget >= 5:
		c.parallelViews(min(2+c.rng.IntN(2), (budget-1)/2))
	case roll < 14 && c.tasks != nil:
		c.progressTasks()
	case roll < 15 && c.tasks != nil:
		r := c.llm(60+c.rng.IntN(80), "")
		a := c.b.ViewTasks(r, "Check the task list")
		c.push(a.Raw, c.b.ViewTasksResult(a, c.tasks))
	case roll < 17:
		c.createFile()
	case roll < 20:
		t := c.llm(300+c.rng.IntN(500), "")
		a := c.b.Think(t, strings.Join([]string{pickString(c.rng, reasoningSentences), pickString(c.rng, reasoningSentences)}, "\n\n"), "Think through the root cause")
		c.push(a.Raw, c.b.ThinkResult(a))
	case roll < 34:
		c.viewFile()
	case roll < 46:
		c.edit()
	case roll < 64:
		cmd := testCommand(c.rng, c.failing)
		c.terminal(cmd, 1500, 8000)
	case roll < 70 && c.lastEdit.path != "":
		e := c.lastEdit
		c.terminal(command{cmd: "git diff", summary: "Review the change", output: UnifiedDiff(e.path, e.before, e.after), risk: RiskLow}, 50, 300)
	default:
		c.terminal(exploreCommand(c.rng, c.repo), 40, 900)
	}
}

func (c *convo) terminal(cmd command, minMs, spreadMs int) {
	r := c.llm(90+c.rng.IntN(260), pickString(c.rng, thoughts))
	a := c.b.Terminal(r, cmd.cmd, cmd.timeout, cmd.summary, cmd.risk)
	c.toolTime(minMs, spreadMs)
	c.push(a.Raw, c.b.TerminalResult(a, cmd.output, cmd.exit))
}

func (c *convo) viewFile() {
	r := c.llm(80+c.rng.IntN(120), pickString(c.rng, thoughts))
	if c.rng.IntN(8) == 0 {
		a := c.b.ViewFile(r, c.b.Env().WorkingDir, 0, 0, "List the repository tree")
		c.toolTime(5, 40)
		c.push(a.Raw, c.b.ViewDirResult(a, c.repo.tree(c.b.Env().WorkingDir), 7))
		return
	}
	f := c.repo.pick(c.rng)
	from, to := 0, 0
	if c.rng.IntN(3) == 0 {
		from = 1 + c.rng.IntN(15)
		to = from + 10 + c.rng.IntN(25)
	}
	a := c.b.ViewFile(r, c.abs(f.path), from, to, "Read "+lastPathPart(f.path))
	c.toolTime(5, 60)
	c.push(a.Raw, c.b.ViewFileResult(a, f.content))
}

// parallelViews reads n files in one LLM response: the actions share its
// llm_response_id, then the observations follow in order.
func (c *convo) parallelViews(n int) {
	r := c.llm(150+c.rng.IntN(200), "Let me read the related files together.")
	perm := c.rng.Perm(len(c.repo.files))
	actions := make([]Action, n)
	for i := range actions {
		f := c.repo.files[perm[i%len(perm)]]
		actions[i] = c.b.ViewFile(r, c.abs(f.path), 0, 0, "Read "+lastPathPart(f.path))
		c.push(actions[i].Raw)
	}
	for i, a := range actions {
		c.toolTime(5, 40)
		c.push(c.b.ViewFileResult(a, c.repo.files[perm[i%len(perm)]].content))
	}
}

func (c *convo) edit() {
	f := c.repo.pick(c.rng)
	oldStr, newStr, summary := f.nextEdit(c.rng)
	r := c.llm(200+c.rng.IntN(700), "")
	a := c.b.StrReplace(r, c.abs(f.path), oldStr, newStr, summary)
	c.toolTime(5, 40)
	ev, after := c.b.StrReplaceResult(a, f.content)
	c.lastEdit = lastEdit{path: f.path, before: f.content, after: after}
	f.content = after
	if c.rng.IntN(5) < 3 {
		c.failing = false
	}
	c.push(a.Raw, ev)
}

// createFile writes a new regression test file; each gets a new name, as
// file_editor refuses to create over an existing file.
func (c *convo) createFile() {
	c.created++
	name := fmt.Sprintf("internal/ledger/regression_%d_test.go", c.created)
	text := fmt.Sprintf(regressionTemplate, c.created, 1000+c.rng.IntN(9000), 1+c.rng.IntN(28))
	r := c.llm(400+c.rng.IntN(700), "I'll add a regression test for this case.")
	a := c.b.CreateFile(r, c.abs(name), text, "Add a regression test")
	c.toolTime(5, 30)
	c.push(a.Raw, c.b.CreateFileResult(a))
}

const regressionTemplate = `package ledger

import (
	"testing"
	"time"
)

// TestRegression%[1]d pins the balance at the exact cutoff instant.
func TestRegression%[1]d(t *testing.T) {
	cutoff := time.Date(2026, 3, %[3]d, 0, 0, 0, 0, time.UTC)
	postings := []Posting{
		{Account: "cash", Amount: %[2]d, At: cutoff},
		{Account: "cash", Amount: -1, At: cutoff.Add(time.Nanosecond)},
	}
	got, err := Balance(postings, cutoff)
	if err != nil {
		t.Fatal(err)
	}
	if got["cash"] != %[2]d {
		t.Fatalf("cash = %%d, want %[2]d", got["cash"])
	}
}
`

// badCall is a str_replace without old_str: the SDK rejects the arguments
// and an AgentErrorEvent answers the call; the agent then carries on.
func (c *convo) badCall() {
	f := c.repo.pick(c.rng)
	r := c.llm(150+c.rng.IntN(300), "")
	path := c.abs(f.path)
	args := ToolArgs("command", "str_replace", "path", path, "new_str", "\treturn nil",
		"summary", "Simplify the error path", "security_risk", RiskLow)
	a := c.b.BadCall(r, "file_editor", args)
	c.push(a.Raw, c.b.AgentError(a, "Error validating args "+args+" for tool 'file_editor': 1 validation error for FileEditorAction\n"+
		"old_str\n  Value error, old_str is required for command 'str_replace' [type=value_error, input_value=None, input_type=NoneType]"))
}

// riskyCommand is a HIGH-risk command under ConfirmRisky: the run waits for
// the user, who approves it after a while.
func (c *convo) riskyCommand() {
	r := c.llm(120+c.rng.IntN(200), "The build directory has stale artifacts; I'll remove it and rebuild.")
	a := c.b.Terminal(r, "rm -rf build/ && go build -o build/ledgerd ./cmd/ledgerd", 120,
		"Delete the build directory and rebuild the binary", RiskHigh)
	c.push(a.Raw, c.b.Status(model.StatusWaitingForConfirmation))
	c.b.Advance(time.Duration(4+c.rng.IntN(40)) * time.Second)
	c.push(c.b.Status(model.StatusRunning))
	c.toolTime(2000, 6000)
	c.push(c.b.TerminalResult(a, "", 0))
}

// progressTasks marks the task in progress done and starts the next.
func (c *convo) progressTasks() {
	for i := range c.tasks {
		if c.tasks[i].Status == "in_progress" {
			c.tasks[i].Status = "done"
			if i+1 < len(c.tasks) {
				c.tasks[i+1].Status = "in_progress"
			}
			break
		}
	}
	c.planStep("Update task progress")
}

func (c *convo) planStep(summary string) {
	r := c.llm(250+c.rng.IntN(300), "I'll update the task list.")
	a := c.b.Plan(r, c.tasks, summary)
	c.toolTime(5, 20)
	c.push(a.Raw, c.b.PlanResult(a))
}

// condense forgets the older half of what the LLM sees: the context window
// is full, a CondensationRequest is raised and the condenser summarises.
func (c *convo) condense() {
	forget := c.b.ViewLen() / 2
	c.push(c.b.CondensationRequest())
	id := c.b.CallCondenser(time.Duration(4000+c.rng.IntN(8000))*time.Millisecond, 700+c.rng.IntN(900))
	c.push(c.b.Stats())
	summary := "USER_CONTEXT: " + pickString(c.rng, userRequests) + "\n\nCOMPLETED: explored the ledger package, reproduced the failure, " +
		"located the cutoff comparison in Balance.\n\nPENDING: finish the fix, add the regression test, run the full suite.\n\n" +
		"CODE_STATE: internal/ledger/balance.go, internal/api/handlers.go edited."
	c.push(c.b.Condensation(4, forget, summary, id))
}

// endTurn has the agent reply, which ends the turn, and the user ask for
// more some time later.
func (c *convo) endTurn(budget int) {
	r := c.llm(200+c.rng.IntN(400), "")
	c.push(c.b.AgentMessage(r, pickString(c.rng, agentReplies)), c.b.Status(model.StatusFinished))
	c.b.Advance(time.Duration(20+c.rng.IntN(300)) * time.Second)
	c.maybeNavigate()
	c.push(c.b.User(pickString(c.rng, userFollowUps)), c.b.Status(model.StatusIdle), c.b.Status(model.StatusRunning))
	c.startTurn(budget - 6)
}

// markRest notes the last event queued that can be HEAD: every step
// answers its actions before it ends, so nothing waits after it.
func (c *convo) markRest() {
	for k := len(c.queue) - 1; k >= 0; k-- {
		if raw := c.queue[k]; !bytes.HasSuffix(raw, []byte(`"kind":"ConversationStateUpdateEvent"}`)) {
			if id, ok := eventID(raw); ok && (len(c.rests) == 0 || c.rests[len(c.rests)-1] != id) {
				if len(c.rests) == 64 {
					c.rests = append(c.rests[:0], c.rests[1:]...)
				}
				c.rests = append(c.rests, id)
			}
			return
		}
	}
}

// maybeNavigate moves HEAD back a few steps when a navigation is due: the
// user did not like where the turn went and asks again from the end of an
// earlier step. The next events (the user's message, the statuses, the new
// steps) hang from it; what came after stays on disk as a branch.
func (c *convo) maybeNavigate() {
	due := c.total * (c.branchesDue + 1) / (c.branches + 1)
	if c.branchesDue >= c.branches || c.emitted+len(c.queue) < due {
		return
	}
	// Not the reply just written, nor the step before it.
	if len(c.rests) < 4 {
		return
	}
	k := len(c.rests) - 3 - c.rng.IntN(min(len(c.rests)-3, 12))
	if c.b.Navigate(c.rests[k]) {
		c.rests = c.rests[:k+1]
		c.branchesDue++
	}
}

// wrap is the final step: the agent calls finish.
func (c *convo) wrap() {
	r := c.llm(300+c.rng.IntN(400), "")
	a := c.b.Finish(r, pickString(c.rng, agentReplies), "Summarise the fix and finish")
	c.toolTime(2, 10)
	c.push(a.Raw, c.b.FinishResult(a), c.b.Status(model.StatusFinished))
}
