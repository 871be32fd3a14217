package conversation

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Replay pacing: the recorded gap between two events, divided by the speed,
// bounded so a long pause in the recording does not stall the replay and a
// burst does not flood the screen.
const (
	minSpeed     = 0.25
	maxSpeed     = 64
	maxPlayGap   = 3 * time.Second
	untimedGap   = 250 * time.Millisecond
	minPlayFrame = 16 * time.Millisecond
)

// playState is the replay's play/pause state and speed.
type playState struct {
	on    bool
	speed float64
	gen   int
}

// togglePlay starts or pauses the replay from the cursor.
func (m *Conversation) togglePlay() tea.Cmd {
	m.play.gen++
	if m.play.on {
		m.play.on = false
		return nil
	}
	if _, ok := m.nextShown(m.cursor); !ok {
		return m.setFlash("at the newest event: nothing to play")
	}
	m.play.on = true
	return m.playNext()
}

// playNext schedules the step to the next shown event after the recorded
// gap scaled by the speed.
func (m *Conversation) playNext() tea.Cmd {
	next, ok := m.nextShown(m.cursor)
	if !ok {
		return nil
	}
	gap := untimedGap
	if a, b := m.Log.Event(max(m.cursor, 0)).Time, m.Log.Event(next).Time; !a.IsZero() && !b.IsZero() {
		gap = max(b.Sub(a), 0)
	}
	gap = min(gap, maxPlayGap)
	gap = max(time.Duration(float64(gap)/m.play.speed), minPlayFrame)
	gen, to := m.play.gen, m.Addr()
	return tea.Tick(gap, func(time.Time) tea.Msg { return playTickMsg{Addr: to, gen: gen} })
}

// playTick steps the replay one event and schedules the next step; it
// stops at the newest event.
func (m *Conversation) playTick(msg playTickMsg) tea.Cmd {
	if !m.play.on || msg.gen != m.play.gen {
		return nil
	}
	next, ok := m.nextShown(m.cursor)
	if !ok {
		m.play.on = false
		return nil
	}
	m.moveTo(next)
	if _, more := m.nextShown(m.cursor); !more {
		m.play.on = false
		return nil
	}
	return m.playNext()
}

// changeSpeed doubles or halves the replay speed within its bounds.
func (m *Conversation) changeSpeed(faster bool) tea.Cmd {
	if faster {
		m.play.speed = min(m.play.speed*2, maxSpeed)
	} else {
		m.play.speed = max(m.play.speed/2, minSpeed)
	}
	if m.play.on {
		m.play.gen++
		return m.playNext()
	}
	return nil
}
