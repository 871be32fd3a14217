package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/client/files"
	"ohwatch/gen"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui"
)

// benchReplayEvents is the size of the recording the first-screen
// benchmark replays: the product promises a first screen within 300 ms at
// this size, with the rest loading behind it.
const benchReplayEvents = 100_000

// benchReplayDir returns a generated SDK conversation directory of n
// events, written once and kept under os.TempDir() across runs: writing
// 100k files takes seconds, reading them is what is measured. A marker
// file written after the directory is complete tells a finished directory
// from one whose writing was interrupted.
func benchReplayDir(b *testing.B, n int) string {
	b.Helper()
	dir := filepath.Join(os.TempDir(), "ohwatch-replay-bench-"+strconv.Itoa(n)+"-1")
	done := dir + ".done"
	if _, err := os.Stat(done); err == nil {
		return dir
	}
	b.Logf("generating %d events into %s (once)", n, dir)
	if err := os.RemoveAll(dir); err != nil {
		b.Fatal(err)
	}
	if err := gen.WriteDir(dir, gen.Options{Events: n, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// firstScreen does what `ohwatch replay DIR` does up to its first frame:
// open the recording, start streaming it into a feed as cmd_replay.go
// does, build the TUI model, and drive Update as Bubble Tea would (Init's
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
		streamInto(ctx, r, feed)
	}()
	stop = func() {
		cancel()
		wg.Wait()
	}

	var m tea.Model = tui.New(tui.Options{Title: titleOf(header.Title, header.ID, dir), Source: "replay " + dir,
		Log: log, Feed: feed, NoColor: true})
	msgs := make(chan tea.Msg, 16)
	runCmds(m.Init(), msgs)
	m, cmd := m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	runCmds(cmd, msgs)
	for log.Len() == 0 {
		var msg tea.Msg
		select {
		case msg = <-msgs:
		case <-time.After(10 * time.Second):
			stop()
			tb.Fatal("no events reached the model within 10s")
		}
		m, cmd = m.Update(msg)
		runCmds(cmd, msgs)
	}
	return m.View().Content, open, stop
}

// runCmds runs a command, and each command of a batch, in its own
// goroutine as Bubble Tea does, sending what they return to msgs. Commands
// that ask the terminal something (the background colour) answer nothing
// here.
func runCmds(cmd tea.Cmd, msgs chan<- tea.Msg) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				runCmds(c, msgs)
			}
			return
		}
		if msg == nil {
			return
		}
		select {
		case msgs <- msg:
		case <-time.After(time.Second):
			// Nobody reads any more: the first screen is already drawn.
		}
	}()
}

// BenchmarkReplayFirstScreen100k measures the time from `ohwatch replay
// DIR` starting on a 100k-event directory to its first screen (160x48),
// reported as ms/first-screen, of which ms/open is opening the recording
// (before the TUI starts). The load itself goes on in the background and
// is cancelled after each iteration.
func BenchmarkReplayFirstScreen100k(b *testing.B) {
	dir := benchReplayDir(b, benchReplayEvents)
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
