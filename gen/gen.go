package gen

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"time"
)

// Options says what to generate.
type Options struct {
	// Events is the exact number of events (at least 1; conversations
	// shorter than a complete one are its first Events events).
	Events int
	// Seed selects the conversation; the same Options give the same bytes.
	Seed int64
	// Start is the first event's timestamp; zero means DefaultStart.
	Start time.Time
	// Branches is how many times the user moves HEAD back (navigate) at the
	// end of a turn, spread evenly over the conversation, and has the agent
	// try again from there: each leaves a branch point. Up to Branches: a
	// conversation with fewer turns gets fewer.
	Branches int
	// Forks is how many forks of the conversation WriteRoot writes beside
	// it, each its own conversation (see WriteRoot); the other writers
	// ignore it.
	Forks int
	// AskUser has the agent ask the user a question early in the first
	// turn (the ask_user pair of upstream after SDK 1.43.1), answered after
	// a while. Off, the conversation is what it always was for its seed.
	AskUser bool
}

// DefaultStart returns the timestamp conversations start at unless told
// otherwise: a fixed date, so output does not depend on when it was made.
// It is a function rather than a variable so that no caller can change
// what every later run generates.
func DefaultStart() time.Time {
	return time.Date(2026, time.March, 14, 9, 26, 53, 589793000, time.UTC)
}

// Events streams the raw JSON of o.Events events, in order. Each slice is
// freshly allocated and owned by the caller. Only the current step is held
// in memory, so a million events need no more than ten.
func Events(o Options) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		c := newConvo(o, false)
		for i := 0; i < o.Events; i++ {
			if !yield(c.next()) {
				return
			}
		}
	}
}

// BaseState is the base_state.json of the conversation o describes, as of
// its last event: it replays the conversation to collect the full Metrics
// lists of every LLM call.
func BaseState(o Options) []byte {
	c := newConvo(o, true)
	for i := 0; i < o.Events; i++ {
		c.next()
	}
	return c.b.BaseState()
}

// WriteJSONL writes the events to w, one compact JSON object per line.
func WriteJSONL(w io.Writer, o Options) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	for ev := range Events(o) {
		if _, err := bw.Write(ev); err != nil {
			return fmt.Errorf("gen: writing JSONL: %w", err)
		}
		if err := bw.WriteByte('\n'); err != nil {
			return fmt.Errorf("gen: writing JSONL: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("gen: writing JSONL: %w", err)
	}
	return nil
}
