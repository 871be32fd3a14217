package session

import (
	"context"
	"log/slog"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// loggedWarnings writes every warning of the feed to the --log file, one
// record each, as it passes: the header counts them and W lists them, and
// the log keeps them all after the viewer is gone. With no log file (a
// handler that takes nothing) the feed is returned as it is.
func loggedWarnings(ctx context.Context, logger *slog.Logger, feed <-chan model.Batch) <-chan model.Batch {
	if logger == nil || !logger.Enabled(ctx, slog.LevelWarn) {
		return feed
	}
	out := make(chan model.Batch, cap(feed))
	go func() {
		defer close(out)
		for b := range feed {
			for _, w := range b.Warnings {
				logger.LogAttrs(ctx, slog.LevelWarn, "warning", slog.String("text", sanitize.Line(w)))
			}
			select {
			case out <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}
