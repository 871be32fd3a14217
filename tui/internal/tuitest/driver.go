package tuitest

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Drivable is what a Driver drives: a screen (tui.Screen) or any model
// that answers messages with a command and draws itself.
type Drivable interface {
	Update(msg tea.Msg) tea.Cmd
	View() string
}

// Driver drives a screen as its user and the program do, from outside:
// keys and messages in, the screen's text out. The commands an answer
// returns are run as the program runs them, their messages handed back to
// Update, until the screen asks for nothing more. A test that reads only
// Screen survives any change of the screen's insides, which is why it is
// the way TUI tests are written; a test that must see a field says why.
//
// Commands that would wait (a timer's tick, a wait on a feed: whatever
// Waits reports) are not run but kept: Pending lists them and RunWaiting
// runs them, so a test moves time on when it chooses to.
type Driver struct {
	tb testing.TB
	s  Drivable
	// Waits reports whether a command would wait rather than answer:
	// such a command is kept, not run. The default keeps timer ticks.
	Waits func(tea.Cmd) bool
	// waiting are the commands kept since the last RunWaiting.
	waiting []tea.Cmd
	// quit is set once a command asked the program to quit.
	quit bool
}

// maxSteps bounds the messages one input may cause, so a screen that asks
// for work forever fails its test rather than hanging it.
const maxSteps = 100_000

// Drive starts driving s at w×h: the first thing it gets is the window's
// size, as from a program.
func Drive(tb testing.TB, s Drivable, w, h int) *Driver {
	tb.Helper()
	d := &Driver{tb: tb, s: s, Waits: IsTick}
	d.Send(WindowSize(w, h))
	return d
}

// Press sends each key, by name as tea.KeyPressMsg.String() spells it
// ("j", "G", "enter", "ctrl+d", "space"), and runs what each asks for.
func (d *Driver) Press(keys ...string) *Driver {
	d.tb.Helper()
	for _, k := range keys {
		d.Send(KeyMsg(k))
	}
	return d
}

// Type types text, one key per character, as into a prompt.
func (d *Driver) Type(text string) *Driver {
	d.tb.Helper()
	for _, r := range text {
		d.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return d
}

// Send hands msg to the screen and runs the commands that follow.
func (d *Driver) Send(msg tea.Msg) *Driver {
	d.tb.Helper()
	queue := []tea.Msg{msg}
	for steps := 0; len(queue) > 0; steps++ {
		if steps == maxSteps {
			d.tb.Fatalf("the screen still asks for work after %d messages", maxSteps)
		}
		next := queue[0]
		queue = queue[1:]
		queue = append(queue, d.run(d.s.Update(next))...)
	}
	return d
}

// Run runs cmd as the program would (what a screen's Init returns, say)
// and hands its messages to the screen; commands that would wait are
// kept, as after Send.
func (d *Driver) Run(cmd tea.Cmd) *Driver {
	d.tb.Helper()
	for _, msg := range d.run(cmd) {
		d.Send(msg)
	}
	return d
}

// run runs cmd as the program would and returns the messages it gave,
// keeping the commands that would wait.
func (d *Driver) run(cmd tea.Cmd) []tea.Msg {
	d.tb.Helper()
	if cmd == nil {
		return nil
	}
	if d.Waits != nil && d.Waits(cmd) {
		d.waiting = append(d.waiting, cmd)
		return nil
	}
	switch msg := AnswerOf(d.tb, cmd).(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var msgs []tea.Msg
		for _, c := range msg {
			msgs = append(msgs, d.run(c)...)
		}
		return msgs
	case tea.QuitMsg:
		d.quit = true
		return nil
	default:
		return []tea.Msg{msg}
	}
}

// Pending is how many commands wait to be run (ticks, by default).
func (d *Driver) Pending() int { return len(d.waiting) }

// PendingOf is how many of the commands waiting to be run are of a kind
// (IsTick, IsFleetFeedWait…).
func (d *Driver) PendingOf(is func(tea.Cmd) bool) int {
	n := 0
	for _, cmd := range d.waiting {
		if is(cmd) {
			n++
		}
	}
	return n
}

// RunWaiting runs the commands that were kept because they wait (the
// timers fire), and what follows them. Run it inside a synctest bubble
// (InBubble), where a timer fires at once.
func (d *Driver) RunWaiting() *Driver {
	d.tb.Helper()
	waiting := d.waiting
	d.waiting = nil
	for _, cmd := range waiting {
		if msg := AnswerOf(d.tb, cmd); msg != nil {
			d.Send(msg)
		}
	}
	return d
}

// Quit reports whether the screen asked the program to quit.
func (d *Driver) Quit() bool { return d.quit }

// Screen is the screen's text as a terminal shows it, without colours or
// attributes.
func (d *Driver) Screen() string { return ansi.Strip(d.s.View()) }

// Row is line i of Screen (from 0; negative counts from the bottom).
func (d *Driver) Row(i int) string {
	rows := strings.Split(d.Screen(), "\n")
	if i < 0 {
		i += len(rows)
	}
	if i < 0 || i >= len(rows) {
		return ""
	}
	return rows[i]
}

// Shows fails the test unless the screen shows every one of texts.
func (d *Driver) Shows(texts ...string) *Driver {
	d.tb.Helper()
	screen := d.Screen()
	for _, t := range texts {
		if !strings.Contains(screen, t) {
			d.tb.Fatalf("the screen does not show %q:\n%s", t, screen)
		}
	}
	return d
}

// Hides fails the test if the screen shows any one of texts.
func (d *Driver) Hides(texts ...string) *Driver {
	d.tb.Helper()
	screen := d.Screen()
	for _, t := range texts {
		if strings.Contains(screen, t) {
			d.tb.Fatalf("the screen shows %q:\n%s", t, screen)
		}
	}
	return d
}
