package session

import (
	"context"
	"sync"
	"testing"
	"time"

	"ohwatch/internal/benchdir"
	"ohwatch/internal/teacmds"

	tea "charm.land/bubbletea/v2"

	"ohwatch/client/files"
	"ohwatch/model"
	"ohwatch/reducer"
	convui "ohwatch/tui/conversation"
)

// firstScreen does what `ohwatch replay DIR` does up to its first frame:
// open the recording, start streaming it into a feed as Replay does, build the TUI model, and drive Update as Bubble Tea would (Init's
// commands, the window size, feed batches until events are on the
// screen), then render once. It returns the screen, how long opening the
// recording took (files.Open and the log's initial state, before the TUI
// starts), and a stop function that cancels the load and waits for it to
// end.
func firstScreen(tb testing.TB, dir string, width, height int) (screen string, open time.Duration, stop func()) {
	tb.Helper()
	start := time.Now()
	ctx, cancel := context.WithCancel(context.Background())
	r, err := files.Open(dir)
	if err != nil {
		cancel()
		tb.Fatal(err)
	}
	header := r.Header()
	baseCount := 0
	if header.Base != nil {
		baseCount = int(r.Total())
	}
	log := reducer.NewLog(header.Base, baseCount)
	open = time.Since(start)
	feed := make(chan model.Batch, 4)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		streamInto(ctx, r, feed, nil)
	}()
	stop = func() {
		cancel()
		wg.Wait()
	}

	var m tea.Model = convui.New(convui.Options{Title: TitleOf(header.Title, header.ID, dir), Source: "replay " + dir,
		Log: log, Feed: feed, NoColor: true})
	msgs := make(chan tea.Msg, 16)
	teacmds.Run(m.Init(), msgs)
	m, cmd := m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	teacmds.Run(cmd, msgs)
	for log.Len() == 0 {
		var msg tea.Msg
		select {
		case msg = <-msgs:
		case <-time.After(10 * time.Second):
			stop()
			tb.Fatal("no events reached the model within 10s")
		}
		m, cmd = m.Update(msg)
		teacmds.Run(cmd, msgs)
	}
	return m.View().Content, open, stop
}

// BenchmarkReplayFirstScreen100k measures the time from `ohwatch replay
// DIR` starting on a 100k-event directory to its first screen (160x48),
// reported as ms/first-screen, of which ms/open is opening the recording
// (before the TUI starts). The load itself goes on in the background and
// is cancelled after each iteration.
func BenchmarkReplayFirstScreen100k(b *testing.B) {
	dir := benchdir.Dir(b, benchdir.Events)
	b.ResetTimer()
	var total, opening time.Duration
	for b.Loop() {
		start := time.Now()
		screen, open, stop := firstScreen(b, dir, 160, 48)
		total += time.Since(start)
		opening += open
		if screen == "" {
			b.Fatal("empty first screen")
		}
		b.StopTimer()
		stop()
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/first-screen")
	b.ReportMetric(float64(opening.Microseconds())/1000/float64(b.N), "ms/open")
}
