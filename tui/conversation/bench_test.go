package conversation

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// benchLog builds a log of n events by repeating a generated conversation
// of up to 2,000 events with fresh ids and shifted times. The raw bytes are
// shared between the copies, so a million-event log fits in memory while
// the log, its checkpoints and its marks are those of n events.
func benchLog(b testing.TB, n int) *reducer.Log {
	b.Helper()
	seed := tuitest.GeneratedEvents(b, min(n, 2000), 42)
	span := seed[len(seed)-1].Time.Sub(seed[0].Time) + time.Second
	log := reducer.NewLog(nil, 0)
	batch := make([]model.Event, 0, len(seed))
	for copyN := 0; log.Len() < n; copyN++ {
		batch = batch[:0]
		for _, ev := range seed {
			if log.Len()+len(batch) >= n {
				break
			}
			if copyN > 0 {
				ev = tuitest.Relabel(ev, "-"+strconv.Itoa(copyN))
				ev.Time = ev.Time.Add(time.Duration(copyN) * span)
			}
			batch = append(batch, ev)
		}
		log.Append(batch...)
	}
	return log
}

// BenchmarkView renders the 160×48 screen with the cursor in the middle of
// logs of 1k and 1M events, under every colour profile: the cost must not
// grow with the log (the row cache is warm after the first frame, as it is
// while a user reads).
func BenchmarkView(b *testing.B) {
	for _, n := range []int{1_000, 1_000_000} {
		log := benchLog(b, n)
		for _, p := range tuitest.Profiles {
			b.Run(strconv.Itoa(n)+"/"+p.String(), func(b *testing.B) {
				m := colourModel(Options{Log: log}, p, 160, 48)
				m.moveTo(n / 2)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					_ = m.View()
				}
			})
		}
	}
}

// BenchmarkKeyToFrame is one cursor key answered and drawn: Update, then
// View, at positions spread over a 1M-event log (each frame moves the
// cursor, so At and the new rows are computed for real), under every
// colour profile.
func BenchmarkKeyToFrame(b *testing.B) {
	const n = 1_000_000
	log := benchLog(b, n)
	for _, p := range tuitest.Profiles {
		b.Run(p.String(), func(b *testing.B) {
			m := colourModel(Options{Log: log}, p, 160, 48)
			keys := []string{"j", "k", "ctrl+d", "pgdown", "]", ")", "}"}
			b.ReportAllocs()
			b.ResetTimer()
			k := 0
			for b.Loop() {
				if k%64 == 0 {
					// Jump somewhere else in the log: a cold start for the caches.
					m.moveTo((k * 7919) % n)
				}
				m, _ = press(b, m, keys[k%len(keys)])
				_ = m.View()
				k++
			}
		})
	}
}

// BenchmarkIngest feeds batches of 333 events (20k events/s at 60 frames/s)
// into a live model, answering a cursor key and drawing a frame for each:
// the time per batch must stay well under a frame.
func BenchmarkIngest(b *testing.B) {
	const batchSize = 333
	seed := tuitest.GeneratedEvents(b, 2000, 43)
	m := newModel(Options{Log: reducer.NewLog(nil, 0), Live: true, Feed: make(chan model.Batch)}, 160, 48)
	b.ReportAllocs()
	b.ResetTimer()
	copyN := 0
	at := 0
	for b.Loop() {
		batch := make([]model.Event, batchSize)
		for k := range batch {
			batch[k] = tuitest.Relabel(seed[at], "-"+strconv.Itoa(copyN))
			at++
			if at == len(seed) {
				at, copyN = 0, copyN+1
			}
		}
		m, _ = send(m, BatchMsg{Batch: model.Batch{Events: batch}})
		m, _ = press(b, m, "k")
		_ = m.View()
		m, _ = press(b, m, "G")
	}
	b.ReportMetric(float64(b.N*batchSize)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkKeyToFrameFiltered is BenchmarkKeyToFrame with a kind filter
// that shows few events of the 1M-event log ("few": its rarest group
// present) or none of them ("none": a group it lacks): each key must still
// cost at most a frame, whatever the distance to the next event shown.
func BenchmarkKeyToFrameFiltered(b *testing.B) {
	const n = 1_000_000
	log := benchLog(b, n)
	count := make([]int, model.NumGroups())
	for i := range n {
		ev := log.Event(i)
		count[model.GroupIndexOf(&ev)]++
	}
	few, none := -1, -1
	for g, c := range count {
		switch {
		case c == 0 && none < 0:
			none = g
		case c > 0 && (few < 0 || c < count[few]):
			few = g
		}
	}
	for _, c := range []struct {
		name  string
		group int
	}{{"few", few}, {"none", none}} {
		if c.group < 0 {
			continue
		}
		name := model.Groups()[c.group]
		b.Run(fmt.Sprintf("%s-%s-%d", c.name, name, count[c.group]), func(b *testing.B) {
			m := colourModel(Options{Log: log}, colorprofile.TrueColor, 160, 48)
			m.setFilter(defaultFilter().toggled(name))
			keys := []string{"j", "k", "ctrl+d", "pgdown", "pgup", "g", "G"}
			tuitest.Frames(b, func(k int) {
				if k%64 == 0 {
					m.moveTo((k * 7919) % n)
				}
				m, _ = press(b, m, keys[k%len(keys)])
				_ = m.View()
			})
		})
	}
}
