package tui

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// TestRunEndsByHowTheUserLeft runs the real program on a fake terminal:
// Ctrl-C (a key in raw mode, the terminal's SIGINT) ends it with
// ErrInterrupted, q with nil, and a cancelled context (a signal caught by
// the caller) with nil, the caller knowing why.
func TestRunEndsByHowTheUserLeft(t *testing.T) {
	for _, tc := range []struct {
		name   string
		input  string
		cancel bool
		want   error
	}{
		{"ctrl+c", "\x03", false, ErrInterrupted},
		{"q", "q", false, nil},
		{"signal", "", true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			in, feed := io.Pipe()
			defer feed.Close()
			done := make(chan error, 1)
			go func() {
				done <- run(ctx, Options{Log: generated(t, 50, 1), Title: "t"},
					tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24))
			}()
			if tc.cancel {
				cancel()
			} else if _, err := feed.Write([]byte(tc.input)); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
					t.Fatalf("Run = %v, want %v", err, tc.want)
				}
			case <-time.After(15 * time.Second):
				t.Fatal("the program did not end")
			}
		})
	}
}
