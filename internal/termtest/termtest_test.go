package termtest

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// counter shows how many keys it was sent; q quits.
type counter struct{ n *atomic.Int32 }

func (c counter) Init() tea.Cmd { return nil }

func (c counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if k.String() == "q" {
			return c, tea.Quit
		}
		c.n.Add(1)
	}
	return c, nil
}

func (c counter) View() tea.View {
	if c.n.Load() == 3 {
		return tea.NewView("three")
	}
	return tea.NewView(fmt.Sprintf("keys seen: %d", c.n.Load()))
}

// TestWaitsWakeOnWritesAndUpdates: a wait for text and a wait for a
// condition each return once the program got there, a wait for what never
// comes gives up at its bound, and Final returns the last model.
func TestWaitsWakeOnWritesAndUpdates(t *testing.T) {
	n := new(atomic.Int32)
	p := Start(t, counter{n}, 40, 5)
	p.WaitFor(t, 10*time.Second, "keys seen: 0")
	p.Type("abc")
	p.WaitUntil(t, 10*time.Second, "three keys", func() bool { return n.Load() == 3 })
	p.WaitFor(t, 10*time.Second, "three")
	if p.wait(20*time.Millisecond, func() bool { return false }) {
		t.Fatal("a wait for what never comes returned true")
	}
	p.Type("q")
	if m, ok := p.Final(t, 10*time.Second).(counter); !ok || m.n.Load() != 3 {
		t.Fatalf("final model %#v", m)
	}
}

// TestWaitScreenReadsTheWholeFrame: WaitScreen sees a line as the program
// drew it whole, although the renderer wrote only the cells that changed
// ("keys seen: 1" after "keys seen: 0" writes just "1").
func TestWaitScreenReadsTheWholeFrame(t *testing.T) {
	n := new(atomic.Int32)
	p := Start(t, counter{n}, 40, 5)
	p.WaitScreen(t, 10*time.Second, "the first frame", func(s string) bool { return s == "keys seen: 0" })
	p.Type("a")
	if got := p.WaitScreen(t, 10*time.Second, "one key", func(s string) bool { return s == "keys seen: 1" }); got != "keys seen: 1" {
		t.Fatalf("WaitScreen gave %q", got)
	}
}
