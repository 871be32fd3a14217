package tuitest

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// stepper counts j presses; enter asks for a command whose answer adds
// ten, t starts a tick that resets the count, q quits.
type stepper struct{ n, w, h int }

type addTen struct{}
type reset struct{}

func (s *stepper) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.w, s.h = msg.Width, msg.Height
	case addTen:
		s.n += 10
	case reset:
		s.n = 0
	case tea.KeyPressMsg:
		switch msg.String() {
		case "j":
			s.n++
		case "enter":
			return tea.Batch(nil, func() tea.Msg { return addTen{} })
		case "t":
			return tea.Tick(time.Second, func(time.Time) tea.Msg { return reset{} })
		case "q":
			return tea.Quit
		}
	}
	return nil
}

func (s *stepper) View() string { return fmt.Sprintf("\x1b[1mcount %d\x1b[0m at %dx%d", s.n, s.w, s.h) }

func TestDriverRunsWhatKeysAskFor(t *testing.T) {
	d := Drive(t, &stepper{}, 80, 24)
	d.Press("j", "j", "enter").Shows("count 12 at 80x24")
	if d.Row(0) != "count 12 at 80x24" {
		t.Fatalf("row 0 %q: the colours are not stripped", d.Row(0))
	}
	d.Press("q")
	if !d.Quit() {
		t.Fatal("tea.Quit was not seen")
	}
}

func TestDriverKeepsTicksUntilAsked(t *testing.T) {
	InBubble(t, func(t *testing.T) {
		d := Drive(t, &stepper{}, 80, 24)
		d.Press("j", "t")
		if d.Pending() != 1 {
			t.Fatalf("%d commands wait; want the tick", d.Pending())
		}
		d.Shows("count 1").RunWaiting().Shows("count 0")
		if d.Pending() != 0 {
			t.Fatal("the tick still waits after it ran")
		}
	})
}

func TestDriverRunsAStartingCommand(t *testing.T) {
	d := Drive(t, &stepper{}, 80, 24)
	d.Run(tea.Batch(func() tea.Msg { return addTen{} }, func() tea.Msg { return addTen{} })).Shows("count 20")
}
