package conversation

import (
	"strings"
	"testing"

	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/internal/tuitest"
)

// loadingModel is a replay whose recording is still being read: the feed
// has delivered the header chunk and the first batches of evs, each with
// the progress a directory of total files reports.
func loadingModel(t *testing.T, evs []model.Event, batches []int, total int64, w, h int) *Conversation {
	t.Helper()
	feed := make(chan model.Batch)
	m := newModel(Options{Log: reducer.NewLog(nil, 0), Feed: feed, Title: "generated", Source: "replay ./big"}, w, h)
	m, _ = send(m, BatchMsg{Batch: model.Batch{Progress: &model.Progress{Total: total}}})
	at := 0
	for _, n := range batches {
		m, _ = send(m, BatchMsg{Batch: model.Batch{Events: evs[at : at+n],
			Progress: &model.Progress{Done: int64(at + n), Total: total, Loaded: at + n}}})
		at += n
	}
	return m
}

func TestLoadingShowsProgressUntilTheFeedCloses(t *testing.T) {
	t.Parallel()
	evs := tuitest.GeneratedEvents(t, 300, 7)
	m := loadingModel(t, evs, nil, 300, 160, 48)
	out := screen(m)
	if !strings.Contains(out, "loading 0%") || !strings.Contains(out, "0 events") {
		t.Fatalf("no progress before the first events:\n%s", out)
	}
	if !strings.Contains(out, "waiting for events") {
		t.Fatalf("the empty list does not say it waits:\n%s", out)
	}

	m, _ = send(m, BatchMsg{Batch: model.Batch{Events: evs[:32],
		Progress: &model.Progress{Done: 32, Total: 300, Loaded: 32}}})
	out = screen(m)
	for _, want := range []string{"loading 10%", "32 events", "⏸ 1/32"} {
		if !strings.Contains(out, want) {
			t.Fatalf("missing %q after the first batch:\n%s", want, out)
		}
	}

	m, _ = send(m, BatchMsg{Batch: model.Batch{Events: evs[32:150],
		Progress: &model.Progress{Done: 150, Total: 300, Loaded: 150}}})
	if !strings.Contains(screen(m), "loading 50%") {
		t.Fatalf("progress did not advance:\n%s", screen(m))
	}

	m, _ = send(m, feedClosedMsg{})
	out = screen(m)
	if strings.Contains(out, "loading") {
		t.Fatalf("the progress stays after the load:\n%s", out)
	}
	if !strings.Contains(out, "recorded") {
		t.Fatalf("a finished replay is not marked recorded:\n%s", out)
	}
}

func TestLoadingReplayKeepsTheCursorAtTheStart(t *testing.T) {
	t.Parallel()
	evs := tuitest.GeneratedEvents(t, 400, 3)
	m := loadingModel(t, evs, []int{32, 64, 128}, 400, 80, 24)
	if m.cursor != 0 || m.follow {
		t.Fatalf("cursor %d follow %v while loading: a replay opens at event 0", m.cursor, m.follow)
	}
	if !strings.Contains(screen(m), "⏸ 1/224") {
		t.Fatalf("header does not count what is loaded:\n%s", screen(m))
	}
	// The panes work on what is loaded: moving, jumping to the end and
	// inspecting all act on the loaded events while the rest arrives.
	m, _ = press(t, m, "j", "j")
	moved := m.cursor
	if moved <= 0 {
		t.Fatalf("j did not move during the load: cursor %d", moved)
	}
	m, _ = send(m, BatchMsg{Batch: model.Batch{Events: evs[224:300],
		Progress: &model.Progress{Done: 300, Total: 400, Loaded: 300}}})
	m, _ = send(m, BatchMsg{Batch: model.Batch{Events: evs[300:350],
		Progress: &model.Progress{Done: 350, Total: 400, Loaded: 350}}})
	if m.cursor != moved {
		t.Fatalf("a batch moved the cursor from %d to %d", moved, m.cursor)
	}
	// G during the load goes to the end of the recording: the cursor
	// follows the load until it is done, and k pins it again.
	m, _ = press(t, m, "G")
	if m.cursor != 349 || !m.follow || !strings.Contains(screen(m), "↓ end 350/350") {
		t.Fatalf("G went to %d (follow %v), want the last loaded event, following:\n%s", m.cursor, m.follow, screen(m))
	}
	m, _ = send(m, BatchMsg{Batch: model.Batch{Events: evs[350:],
		Progress: &model.Progress{Done: 400, Total: 400, Loaded: 400}}})
	if m.cursor != 399 {
		t.Fatalf("after G the cursor stayed at %d while the recording loaded", m.cursor)
	}
	m, _ = press(t, m, "k")
	if m.follow {
		t.Fatal("k did not pin the cursor")
	}
	if newCount := m.newSincePin(); newCount != 0 {
		t.Fatalf("a replay counts %d loaded events as new", newCount)
	}
	m, _ = press(t, m, "enter")
	if !strings.Contains(screen(m), "▌ Inspect #399") {
		t.Fatal("the inspector does not open during a load")
	}
	tuitest.AssertScreenShape(t, screen(m), 80, 24)
	m, _ = press(t, m, "esc", "G")
	m, _ = send(m, feedClosedMsg{})
	if m.follow || !strings.Contains(screen(m), "⏸ 400/400") {
		t.Fatalf("a loaded recording still follows:\n%s", screen(m))
	}
}

func TestLoadingHeaderWithoutTotal(t *testing.T) {
	t.Parallel()
	evs := tuitest.GeneratedEvents(t, 50, 2)
	m := loadingModel(t, evs, []int{50}, 0, 160, 48)
	out := screen(m)
	if !strings.Contains(out, "loading 50 events") || strings.Contains(out, "%") && strings.Contains(out, "loading 0%") {
		t.Fatalf("an unknown total should show the count alone:\n%s", out)
	}
}
