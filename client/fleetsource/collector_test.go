package fleetsource

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"ohwatch/model"
)

// tickingSource emits one event for its conversation every gap, n times,
// after waiting first; then it returns.
type tickingSource struct {
	first, gap time.Duration
	n          int
}

func (s tickingSource) Label() string          { return "ticking" }
func (s tickingSource) Kind() model.SourceKind { return model.SourceServer }
func (s tickingSource) Run(ctx context.Context, emit func(...model.FleetUpdate)) {
	ref := model.ConversationRef{Source: s.Label(), Kind: s.Kind(), ID: "c"}
	time.Sleep(s.first)
	for i := range s.n {
		if i > 0 {
			time.Sleep(s.gap)
		}
		emit(model.FleetUpdate{Ref: ref, Batch: model.Batch{Events: []model.Event{{ID: string(rune('a' + i%26))}}}})
	}
}

// TestWatchHandsOverAtMostOneSliceAWindow: a conversation busy for a second
// (an event every millisecond) reaches the consumer in at most eleven
// slices with the default window, every event once and in order; a lone
// change after a quiet spell is handed over at once, not a window later.
func TestWatchHandsOverAtMostOneSliceAWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		feed := Watch(ctx, []Source{tickingSource{first: time.Second, gap: time.Millisecond, n: 1000}}, Options{})
		start := time.Now()
		slices, events := 0, 0
		var firstAt time.Duration
		for ups := range feed {
			if slices == 0 {
				firstAt = time.Since(start)
			}
			slices++
			for _, u := range ups {
				for _, ev := range u.Batch.Events {
					if want := string(rune('a' + events%26)); ev.ID != want {
						t.Fatalf("event %d is %q, want %q", events, ev.ID, want)
					}
					events++
				}
			}
		}
		if events != 1000 {
			t.Errorf("%d events handed over, want 1000", events)
		}
		if firstAt != time.Second {
			t.Errorf("the first change after a quiet second came %v after the start, want at once (1s)", firstAt)
		}
		if slices > 11 {
			t.Errorf("%d slices for a second of changes, want at most 11 (one per %v)", slices, DefaultCoalesce)
		}
	})
}
