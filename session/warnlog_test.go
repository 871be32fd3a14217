package session

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"ohwatch/model"
)

// TestLogHasEveryWarning: each warning the feed carries is a record of the
// --log file, and the batch goes on unchanged.
func TestLogHasEveryWarning(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, nil))
	feed := make(chan model.Batch, 2)
	feed <- model.Batch{Warnings: []string{"first: index gap", "second: bad json"}}
	feed <- model.Batch{Warnings: []string{"third \x1b[31mred"}}
	close(feed)
	var got []string
	for b := range loggedWarnings(context.Background(), logger, feed) {
		got = append(got, b.Warnings...)
	}
	if len(got) != 3 {
		t.Fatalf("the feed lost warnings: %q", got)
	}
	for _, w := range []string{"first: index gap", "second: bad json", "third"} {
		if !strings.Contains(buf.String(), w) {
			t.Fatalf("the log lacks %q:\n%s", w, buf.String())
		}
	}
	if strings.Contains(buf.String(), "\x1b") {
		t.Fatalf("an escape reached the log:\n%q", buf.String())
	}
	if loggedWarnings(context.Background(), slog.New(slog.DiscardHandler), feed) != (<-chan model.Batch)(feed) {
		t.Fatal("no log file: the feed should be passed through as it is")
	}
}
