package tuitest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Controls records the answers sent to a live conversation (it implements
// the conversation view's Controls); Err, when set, is what every answer
// returns.
type Controls struct {
	mu      sync.Mutex
	answers []bool
	ids     [][]string
	Err     error
}

// Respond records an answer to the pending actions.
func (f *Controls) Respond(_ context.Context, accept bool, actionIDs []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Err != nil {
		return f.Err
	}
	f.answers = append(f.answers, accept)
	f.ids = append(f.ids, slices.Clone(actionIDs))
	return nil
}

// Answers are the answers recorded, in order, with the actions each named.
func (f *Controls) Answers() ([]bool, [][]string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.answers), slices.Clone(f.ids)
}

// Steering records the controls sent to it (it implements the
// conversation view's Steering): Got lists them. Err, when set, is what
// every control returns after it is recorded.
type Steering struct {
	Controls
	mu   sync.Mutex
	sent []string
	Err  error
}

// Record records control s and returns Err.
func (f *Steering) Record(s string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, s)
	return f.Err
}

// Pause records "pause".
func (f *Steering) Pause(context.Context) error { return f.Record("pause") }

// Run records "run".
func (f *Steering) Run(context.Context) error { return f.Record("run") }

// Interrupt records "interrupt".
func (f *Steering) Interrupt(context.Context) error { return f.Record("interrupt") }

// Message records "message TEXT +run" or "message TEXT append".
func (f *Steering) Message(_ context.Context, text string, run bool) error {
	return f.Record("message " + text + map[bool]string{true: " +run", false: " append"}[run])
}

// Policy records "policy P" and answers that P is set.
func (f *Steering) Policy(_ context.Context, p string) (string, error) {
	return p, f.Record("policy " + p)
}

// Got is the controls recorded, joined by "|".
func (f *Steering) Got() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.sent, "|")
}

// WaitingSteering is a Steering whose resume waits for the server (it
// implements the conversation view's RunWaiter): it says a line, then
// waits until Release is closed.
type WaitingSteering struct {
	Steering
	Release chan struct{}
	// deadline is the time the resume's context gave it.
	mu       sync.Mutex
	deadline time.Duration
}

// NewWaitingSteering is a WaitingSteering not yet released.
func NewWaitingSteering() *WaitingSteering {
	return &WaitingSteering{Release: make(chan struct{})}
}

// RunWaiting says what it waits for, waits for Release and records "run".
func (w *WaitingSteering) RunWaiting(ctx context.Context, say func(string)) error {
	if d, ok := ctx.Deadline(); ok {
		w.mu.Lock()
		w.deadline = time.Until(d)
		w.mu.Unlock()
	}
	say("the server is still finishing the paused run")
	<-w.Release
	return w.Record("run")
}

// Deadline is how long the resume's context let it wait (0: no deadline).
func (w *WaitingSteering) Deadline() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.deadline
}

// Results runs cmd and returns the messages it and its batches send,
// ticks and a flash's expiry aside.
func Results(tb testing.TB, cmd tea.Cmd) []tea.Msg {
	tb.Helper()
	if cmd == nil || IsTick(cmd) {
		return nil
	}
	msg := AnswerOf(tb, cmd)
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, Results(tb, c)...)
		}
		return out
	}
	if msg == nil || strings.HasSuffix(fmt.Sprintf("%T", msg), ".flashExpiredMsg") {
		return nil
	}
	return []tea.Msg{msg}
}

// FirstAddressed runs cmd (and the commands of a batch, a feed's wait
// answering at once as its batch is waiting) until one sends a message
// addressed to id (a tui.Addressed whose Addressee is id), and returns it.
func FirstAddressed[ID comparable](tb testing.TB, cmd tea.Cmd, id ID) tea.Msg {
	tb.Helper()
	if cmd == nil {
		tb.Fatal("no command")
	}
	addressed := func(msg tea.Msg) bool {
		a, ok := msg.(interface{ Addressee() ID })
		return ok && a.Addressee() == id
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			if c == nil {
				continue
			}
			if m := c(); addressed(m) {
				return m
			}
		}
	default:
		if addressed(msg) {
			return msg
		}
	}
	tb.Fatalf("no message addressed to %v", id)
	return nil
}

// ForkCall is one call of Branching.Fork.
type ForkCall struct{ EventID, Title, Message string }

// ErrHalfFork is a fork that exists but whose first message failed: a
// Branching whose ForkErr wraps it returns the fork's id with the error.
var ErrHalfFork = errors.New("the first message was not sent")

// Branching records what a view asks of the source's tree (the Fork and
// Navigate of the conversation view's Branching; a test adds Open, which
// names the view's options). ForkErr and NavErr are what Fork and Navigate
// return.
type Branching struct {
	mu      sync.Mutex
	forks   []ForkCall
	navs    []string
	ForkErr error
	NavErr  error
}

// ForkID is the id every fork Branching makes gets.
const ForkID = "f0000000000040008000000000000001"

// Fork records the call and returns ForkID (none when ForkErr is set and
// is not ErrHalfFork).
func (f *Branching) Fork(_ context.Context, from, title, message string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.forks = append(f.forks, ForkCall{EventID: from, Title: title, Message: message})
	if f.ForkErr != nil && !errors.Is(f.ForkErr, ErrHalfFork) {
		return "", f.ForkErr
	}
	return ForkID, f.ForkErr
}

// Navigate records the event moved to and returns NavErr.
func (f *Branching) Navigate(_ context.Context, eventID string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.navs = append(f.navs, eventID)
	return f.NavErr
}

// Calls are the forks and navigations recorded, in order.
func (f *Branching) Calls() ([]ForkCall, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.forks), slices.Clone(f.navs)
}
