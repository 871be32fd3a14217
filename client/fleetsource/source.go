package fleetsource

import (
	"context"
	"sync"
	"time"

	"ohwatch/model"
)

// DefaultCoalesce is the least time between two slices: a table of many
// conversations redrawn ten times a second shows every change soon enough,
// and a hundred busy streams handed over once a frame (16 ms) cost the
// whole program half a core, most of it drawing (tools/fleetcpu: 51-55%,
// 31-33% at 100 ms). A change after a quiet spell is handed over at once.
const DefaultCoalesce = 100 * time.Millisecond

// GCPercent is the garbage collector's target a fleet process should run
// with (debug.SetGCPercent; the command applies it unless GOGC is set): a
// fleet holds a large, long-lived state while a hundred streams catch up
// at once, and with Go's default of 100 the heap grew to twice what was
// live, so a 20,000-conversation account peaked at 241-352 MiB of RSS
// against 138-145 MiB after a collection. At 50 it peaked at 227-242 MiB
// for the same CPU (28-31% of a core against 26-35%;
// BenchmarkFleetScale20k, which runs with it).
const GCPercent = 50

// Source is one place a fleet's conversations come from.
type Source interface {
	// Label names the source in every ConversationRef it makes: unique
	// within a fleet, free of credentials.
	Label() string
	// Kind says what kind of place it is.
	Kind() model.SourceKind
	// Run lists the source's conversations and follows them, handing what
	// it learns to emit (which never blocks), until ctx ends. It returns
	// only once nothing more will be emitted.
	Run(ctx context.Context, emit func(...model.FleetUpdate))
}

// Options tunes Watch. The zero value is right for real use.
type Options struct {
	// Coalesce is the least time between two slices (DefaultCoalesce
	// when 0; negative hands every update over at once).
	Coalesce time.Duration
}

// Watch runs every source until ctx ends and returns the merged stream:
// at most one slice of updates per Coalesce for the whole fleet. The channel is
// closed once every source has returned and what they emitted was
// delivered, or when ctx ends.
func Watch(ctx context.Context, sources []Source, opts Options) <-chan []model.FleetUpdate {
	window := opts.Coalesce
	switch {
	case window == 0:
		window = DefaultCoalesce
	case window < 0:
		window = 0
	}
	c := newCollector(window)
	out := make(chan []model.FleetUpdate)
	go c.send(ctx, out)
	var wg sync.WaitGroup
	for _, s := range sources {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Run(ctx, c.add)
		}()
	}
	go func() {
		wg.Wait()
		c.finish()
	}()
	return out
}

// sourceRef is the ref of updates about the source itself.
func sourceRef(s Source) model.ConversationRef {
	return model.ConversationRef{Source: s.Label(), Kind: s.Kind()}
}

// sameListing reports whether two listings of a conversation say the same,
// so an unchanged listing is not handed on at every poll.
func sameListing(a, b *model.ConversationMeta) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Title != b.Title || a.Status != b.Status || !a.CreatedAt.Equal(b.CreatedAt) || !a.UpdatedAt.Equal(b.UpdatedAt) ||
		a.Paused != b.Paused || a.ParentID != b.ParentID || a.ForkedFromEvent != b.ForkedFromEvent || a.StatusSource != b.StatusSource {
		return false
	}
	if (a.Usage == nil) != (b.Usage == nil) || a.Usage != nil && *a.Usage != *b.Usage {
		return false
	}
	if (a.Stats == nil) != (b.Stats == nil) {
		return false
	}
	if a.Stats == nil {
		return true
	}
	ac, at := a.Stats.Totals()
	bc, bt := b.Stats.Totals()
	return ac == bc && at == bt
}

// SplitSources separates the updates about the sources themselves (an
// empty Ref.ID: their listing's connection state and warnings) from those
// about conversations, keeping the order of each. It allocates only when
// there are source updates.
func SplitSources(ups []model.FleetUpdate) (conversations, sources []model.FleetUpdate) {
	i := 0
	for i < len(ups) && ups[i].Ref.ID != "" {
		i++
	}
	if i == len(ups) {
		return ups, nil
	}
	conversations = append(make([]model.FleetUpdate, 0, len(ups)), ups[:i]...)
	for _, u := range ups[i:] {
		if u.Ref.ID == "" {
			sources = append(sources, u)
		} else {
			conversations = append(conversations, u)
		}
	}
	return conversations, sources
}
