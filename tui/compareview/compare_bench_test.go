package compareview

import (
	"strconv"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// compareBenchLog is benchLog of another seed: n events, a generated
// conversation of 2,000 repeated with fresh ids and shifted times.
func compareBenchLog(b testing.TB, n int, seed int64) *reducer.Log {
	b.Helper()
	base := tuitest.GeneratedEvents(b, min(n, 2000), seed)
	span := base[len(base)-1].Time.Sub(base[0].Time) + time.Second
	log := reducer.NewLog(nil, 0)
	batch := make([]model.Event, 0, len(base))
	for copyN := 0; log.Len() < n; copyN++ {
		batch = batch[:0]
		for _, ev := range base {
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

// BenchmarkCompareKeyToFrame presses keys on the compare screen of two
// runs of a million events each (two seeds: they differ all along), in
// truecolor at 200x50, and draws the frame after each: moves, next and
// previous difference, pages, and every 64 keys a jump elsewhere (cold
// rows). cpu-ms/frame is the CPU time of the frame's own thread.
func BenchmarkCompareKeyToFrame(b *testing.B) {
	const n = 1_000_000
	a, other := compareBenchLog(b, n, 42), compareBenchLog(b, n, 43)
	c := NewCompare(CompareOptions{
		A:       CompareSide{Title: "A", Log: a, Ended: true},
		B:       CompareSide{Title: "B", Log: other, Ended: true},
		Profile: colorprofile.TrueColor,
	})
	c.SetSize(200, 50)
	defer tuitest.LockThread()()
	start, startCPU := time.Now(), tuitest.ThreadCPU()
	alignNow(c)
	b.Logf("aligned %d and %d steps in %v (%v of CPU): %d rows", len(c.Cmp.StepsA), len(c.Cmp.StepsB),
		time.Since(start).Round(time.Millisecond), (tuitest.ThreadCPU() - startCPU).Round(time.Millisecond), len(c.Cmp.Rows))
	keys := []string{"j", "k", "]", "[", "pgdown", "pgup", "j", "n"}
	rows := len(c.Cmp.Rows)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := tuitest.ThreadCPU()
	k := 0
	for b.Loop() {
		if k%64 == 0 {
			c.moveTo((k * 7919) % rows)
		}
		c.Update(tuitest.KeyMsg(keys[k%len(keys)]))
		_ = c.View()
		k++
	}
	b.ReportMetric(float64((tuitest.ThreadCPU()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/frame")
}
