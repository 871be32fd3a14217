package termtest

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Program is a running Bubble Tea program and the terminal it writes to.
type Program struct {
	p *tea.Program
	n *notifying // the model, as the program runs it
	// changed is signalled (capacity 1) on each write and after each
	// Update; every wait waits on it.
	changed chan struct{}

	mu  sync.Mutex
	out bytes.Buffer // written since a wait last found what it wanted

	done  chan struct{}
	final tea.Model
	err   error
}

// Start runs m on a width×height terminal. The program is killed when the
// test ends, if it has not ended by then.
func Start(t testing.TB, m tea.Model, width, height int) *Program {
	t.Helper()
	p := &Program{changed: make(chan struct{}, 1), done: make(chan struct{})}
	p.n = &notifying{Model: m, changed: p.changed}
	p.p = tea.NewProgram(p.n,
		tea.WithInput(bytes.NewBuffer(nil)), tea.WithOutput(terminal{p}),
		tea.WithoutSignals(), tea.WithWindowSize(width, height))
	go func() {
		final, err := p.p.Run()
		if n, ok := final.(*notifying); ok {
			final = n.Model
		}
		p.final, p.err = final, err
		close(p.done)
	}()
	p.p.Send(tea.WindowSizeMsg{Width: width, Height: height})
	t.Cleanup(func() {
		p.p.Kill()
		<-p.done
	})
	return p
}

// Send sends msg to the program.
func (p *Program) Send(msg tea.Msg) { p.p.Send(msg) }

// Type sends each rune of s as a key press.
func (p *Program) Type(s string) {
	for _, r := range s {
		p.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// WaitFor waits until everything the program wrote since the last
// WaitFor that succeeded holds every one of what, and fails the test if
// that takes longer than bound. The renderer writes only the cells that
// changed, so each step should wait for text that it alone puts on the
// screen.
func (p *Program) WaitFor(t testing.TB, bound time.Duration, what ...string) {
	t.Helper()
	found := func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, w := range what {
			if !strings.Contains(p.out.String(), w) {
				return false
			}
		}
		p.out.Reset()
		return true
	}
	if !p.wait(bound, found) {
		p.mu.Lock()
		defer p.mu.Unlock()
		t.Fatalf("not all of %q on the terminal after %s; output since the last step:\n%q", what, bound, p.out.String())
	}
}

// WaitUntil waits until cond holds, checking it after each Update and
// each write, and fails the test, naming what, if that takes longer than
// bound. cond runs beside the program: what it reads must be safe for
// that (a reducer.Log is).
func (p *Program) WaitUntil(t testing.TB, bound time.Duration, what string, cond func() bool) {
	t.Helper()
	if !p.wait(bound, cond) {
		t.Fatalf("not %s after %s", what, bound)
	}
}

// WaitScreen waits until the last frame the program drew (its whole
// content, as its View gave it) satisfies cond, and returns that frame;
// it fails the test, naming what and showing the frame, if that takes
// longer than bound. Unlike WaitFor it reads the screen, not the writes
// that changed it, so a test may check what a line holds as a whole.
func (p *Program) WaitScreen(t testing.TB, bound time.Duration, what string, cond func(screen string) bool) string {
	t.Helper()
	var screen string
	if !p.wait(bound, func() bool {
		screen = p.Screen()
		return cond(screen)
	}) {
		t.Fatalf("not %s after %s; the screen:\n%s", what, bound, screen)
	}
	return screen
}

// Screen is the content of the last frame the program drew ("" before
// the first).
func (p *Program) Screen() string {
	p.n.mu.Lock()
	defer p.n.mu.Unlock()
	return p.n.screen
}

// wait reports whether ok held before bound passed.
func (p *Program) wait(bound time.Duration, ok func() bool) bool {
	timeout := time.NewTimer(bound)
	defer timeout.Stop()
	for {
		if ok() {
			return true
		}
		select {
		case <-p.changed:
		case <-p.done:
			return ok()
		case <-timeout.C:
			return false
		}
	}
}

// Final waits for the program to end (bound is the failure limit) and
// returns its last model.
func (p *Program) Final(t testing.TB, bound time.Duration) tea.Model {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(bound):
		t.Fatalf("the program still runs after %s", bound)
	}
	if p.err != nil {
		t.Fatalf("the program failed: %v", p.err)
	}
	return p.final
}

// terminal is the program's output: kept for WaitFor, and each write
// wakes a wait.
type terminal struct{ p *Program }

func (w terminal) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	n, err := w.p.out.Write(b)
	w.p.mu.Unlock()
	signal(w.p.changed)
	return n, err
}

// notifying is the test's model wrapped so that each Update wakes a wait
// and each frame drawn is kept for WaitScreen.
type notifying struct {
	tea.Model
	changed chan struct{}
	mu      sync.Mutex
	screen  string // the content of the last frame drawn
}

// View implements tea.Model: the frame, kept.
func (n *notifying) View() tea.View {
	v := n.Model.View()
	n.mu.Lock()
	n.screen = v.Content
	n.mu.Unlock()
	signal(n.changed)
	return v
}

func (n *notifying) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := n.Model.Update(msg)
	n.Model = m
	signal(n.changed)
	return n, cmd
}

// signal wakes a waiting test without blocking when one wake-up is
// already pending.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
