package cloud

import (
	"context"
	"fmt"
	"time"
)

// DefaultStoreTimeout bounds AwaitStored: Cloud's agent-servers post their
// events in batches flushed every 30 s, so a minute covers the last batch
// with room to spare.
const DefaultStoreTimeout = 60 * time.Second

// storePoll is the most time between two readings of the stored events.
const storePoll = time.Second

// AwaitStored waits until the events Cloud stored for the conversation
// hold every id in seen (the events watched live), bounded by
// Config.StoreTimeout. The sandbox's agent-server posts events to Cloud in
// batches; deleting the sandbox before its last batch is posted would lose
// the end of the run from Cloud's record for good, so a session that
// started a sandbox waits here before Close deletes it. It returns how
// many of seen Cloud holds; an error only when it could not tell (the
// stored events could not be read by the deadline).
func (s *Session) AwaitStored(ctx context.Context, conversationID string, seen []string) (stored int, err error) {
	if len(seen) == 0 {
		return 0, nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.StoreTimeout)
	defer cancel()
	interval := min(s.cfg.PollInterval, storePoll)
	reported := -1
	for {
		evs, rerr := s.storedAll(ctx, conversationID)
		if rerr == nil {
			have := make(map[string]bool, len(evs))
			for _, ev := range evs {
				have[ev.ID] = true
			}
			stored = 0
			for _, id := range seen {
				if have[id] {
					stored++
				}
			}
			if stored == len(seen) {
				return stored, nil
			}
			if stored != reported {
				reported = stored
				s.progress(fmt.Sprintf("Cloud has stored %d of the %d events seen live; waiting up to %s for the rest before deleting the sandbox",
					stored, len(seen), s.cfg.StoreTimeout.Round(time.Second)))
			}
			err = nil
		} else if ctx.Err() == nil {
			err = rerr
			s.retrying(rerr)
		}
		select {
		case <-ctx.Done():
			if reported < 0 && err == nil {
				err = ctx.Err()
			}
			return stored, err
		case <-time.After(interval):
		}
	}
}
