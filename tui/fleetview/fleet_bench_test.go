package fleetview

import (
	"fmt"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/model"
	"ohwatch/theme"
	"ohwatch/tui/internal/tuitest"
)

// fleetBench is a fleet table in colour at 160x48 over 100 live
// conversations, each with a history of 1,000 generated events, and the
// events each conversation sends next.
type fleetBench struct {
	f    *Fleet
	refs []model.ConversationRef
	next [][]model.Event
}

const (
	fleetBenchConvs   = 100
	fleetBenchHistory = 1000
	fleetBenchLive    = 1000
	// fleetBenchPerFrame is each conversation's events in one 16 ms
	// frame at 100 events/s (1.6, rounded up).
	fleetBenchPerFrame = 2
)

func newFleetBench(b *testing.B) *fleetBench {
	b.Helper()
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	fb := &fleetBench{f: NewFleet(FleetOptions{Profile: colorprofile.TrueColor, Theme: theme.DarkMode,
		Now: func() time.Time { return now }})}
	fb.f.SetSize(160, 48)
	var history []model.FleetUpdate
	for c := range fleetBenchConvs {
		ref := model.ConversationRef{Source: "http://127.0.0.1:8000", Kind: model.SourceServer, ID: fmt.Sprintf("conv-%03d", c)}
		evs := tuitest.GeneratedEvents(b, fleetBenchHistory+fleetBenchLive, int64(c+1))
		history = append(history, metaUp(ref, model.ConversationMeta{Title: fmt.Sprintf("conversation %d of the fleet", c)}),
			connUp(ref, model.PhaseLive), eventsUp(ref, evs[:fleetBenchHistory]...))
		fb.refs = append(fb.refs, ref)
		fb.next = append(fb.next, evs[fleetBenchHistory:])
	}
	fb.f.Update(fleetUpdatesMsg{ups: history})
	return fb
}

// frame is one frame's slice: every conversation's next events. Past the
// generated events they repeat (and are dropped as duplicates).
func (fb *fleetBench) frame(i int) []model.FleetUpdate {
	ups := make([]model.FleetUpdate, len(fb.refs))
	at := i * fleetBenchPerFrame % fleetBenchLive
	for c, ref := range fb.refs {
		ups[c] = eventsUp(ref, fb.next[c][at:at+fleetBenchPerFrame]...)
	}
	return ups
}

// BenchmarkFleetFrame is one frame of the fleet table with 100 live
// conversations at 100 events/s each: the frame's updates folded, the
// rows arranged and the screen drawn (target ≤ 16 ms). Run it with
// -benchtime 500x so every frame brings new events.
func BenchmarkFleetFrame(b *testing.B) {
	fb := newFleetBench(b)
	tuitest.Frames(b, func(i int) {
		fb.f.Update(fleetUpdatesMsg{ups: fb.frame(i)})
		_ = fb.f.View()
	})
}

// BenchmarkFleetKeyToFrame is a key pressed in the same live table, then
// the next frame: a cursor move, a re-sort or a filter keystroke (target:
// within one frame).
func BenchmarkFleetKeyToFrame(b *testing.B) {
	for _, keys := range []struct {
		name string
		key  string
	}{{"move", "j"}, {"sort", "s"}, {"group", "v"}} {
		b.Run(keys.name, func(b *testing.B) {
			fb := newFleetBench(b)
			tuitest.Frames(b, func(int) {
				fb.f.Update(tuitest.KeyMsg(keys.key))
				_ = fb.f.View()
			})
		})
	}
}

// BenchmarkFleetFrame1000 is a frame of the table over 1,000 listed
// conversations (a large local root) while one of them streams: every row
// is arranged again, the visible ones drawn.
func BenchmarkFleetFrame1000(b *testing.B) { benchListedFrame(b, 1000) }

// BenchmarkFleetFrame100k is that frame over 100,000 listed conversations
// (a large account, each shown from its listing) while one streams
// (target ≤ 16 ms: only the visible rows are drawn).
func BenchmarkFleetFrame100k(b *testing.B) { benchListedFrame(b, 100_000) }

func benchListedFrame(b *testing.B, listed int) {
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	f := NewFleet(FleetOptions{Profile: colorprofile.TrueColor, Theme: theme.DarkMode, Now: func() time.Time { return now }})
	f.SetSize(160, 48)
	var ups []model.FleetUpdate
	for c := range listed {
		ref := model.ConversationRef{Source: "/home/me/.openhands/conversations", Kind: model.SourceLocal, ID: fmt.Sprintf("%032x", c)}
		ups = append(ups, metaUp(ref, model.ConversationMeta{Title: fmt.Sprintf("conversation %d", c), Status: model.StatusFinished,
			UpdatedAt: now.Add(-time.Duration(c) * time.Minute)}))
	}
	f.Update(fleetUpdatesMsg{ups: ups})
	evs := tuitest.GeneratedEvents(b, 2000, 9)
	live := ups[0].Ref
	tuitest.Frames(b, func(i int) {
		at := i * 2 % len(evs)
		f.Update(fleetUpdatesMsg{ups: []model.FleetUpdate{eventsUp(live, evs[at:at+2]...)}})
		_ = f.View()
	})
}
