package conversation

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"ohwatch/reducer"
	"ohwatch/tui"
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

// player is the replay (space plays and pauses, + and - change the
// speed): it steps the cursor from one shown event to the next after the
// recorded gap between them, scaled by the speed. It owns its state, its
// keys and its ticks; the view hands it the log, the cursor and the way to
// the next shown event (a reel), and moves the cursor where it asks.
type player struct {
	on    bool
	speed float64
	// gen drops the ticks of a replay paused or restarted since.
	gen int
}

// newPlayer is a paused replay at 1x.
func newPlayer() player { return player{speed: 1} }

// reel is what the replay reads of the view: the log, the cursor, the
// next shown event after an index (the filter and the branch decide), and
// the address of the replay's ticks.
type reel struct {
	log    *reducer.Log
	cursor int
	next   func(i int) (int, bool)
	to     tui.Addr
}

// key answers the replay's keys (k is the active key map, all the whole
// one): play or pause, faster, slower; a replay key that is off (a live
// conversation) is said rather than ignored. It reports whether msg was
// one of them.
func (p *player) key(msg tea.KeyPressMsg, k, all tui.KeyMap, r reel) (outcome, bool) {
	switch {
	case key.Matches(msg, k.Play):
		return p.toggle(r), true
	case key.Matches(msg, k.Faster):
		return p.changeSpeed(true, r), true
	case key.Matches(msg, k.Slower):
		return p.changeSpeed(false, r), true
	case key.Matches(msg, all.Play, all.Faster, all.Slower):
		return outcome{flash: "live: nothing to play back (G follows the newest; replay plays a recording)"}, true
	}
	return outcome{}, false
}

// toggle starts or pauses the replay from the cursor.
func (p *player) toggle(r reel) outcome {
	p.gen++
	if p.on {
		p.on = false
		return outcome{}
	}
	if _, ok := r.next(r.cursor); !ok {
		return outcome{flash: "at the newest event: nothing to play"}
	}
	p.on = true
	return outcome{cmd: p.schedule(r)}
}

// schedule waits for the step to the next shown event after the cursor:
// the recorded gap scaled by the speed.
func (p *player) schedule(r reel) tea.Cmd {
	next, ok := r.next(r.cursor)
	if !ok {
		return nil
	}
	gap := untimedGap
	if a, b := r.log.Event(max(r.cursor, 0)).Time, r.log.Event(next).Time; !a.IsZero() && !b.IsZero() {
		gap = max(b.Sub(a), 0)
	}
	gap = min(gap, maxPlayGap)
	gap = max(time.Duration(float64(gap)/p.speed), minPlayFrame)
	gen, to := p.gen, r.to
	return tea.Tick(gap, func(time.Time) tea.Msg { return playTickMsg{Addr: to, gen: gen} })
}

// tick steps the replay one event and schedules the next step; it stops
// at the newest event.
func (p *player) tick(msg playTickMsg, r reel) outcome {
	var o outcome
	if !p.on || msg.gen != p.gen {
		return o
	}
	next, ok := r.next(r.cursor)
	if !ok {
		p.on = false
		return o
	}
	o.moveTo(next)
	r.cursor = next
	if _, more := r.next(next); !more {
		p.on = false
		return o
	}
	o.cmd = p.schedule(r)
	return o
}

// changeSpeed doubles or halves the replay speed within its bounds; a
// replay that plays waits anew at the new speed.
func (p *player) changeSpeed(faster bool, r reel) outcome {
	if faster {
		p.speed = min(p.speed*2, maxSpeed)
	} else {
		p.speed = max(p.speed/2, minSpeed)
	}
	if !p.on {
		return outcome{}
	}
	p.gen++
	return outcome{cmd: p.schedule(r)}
}
