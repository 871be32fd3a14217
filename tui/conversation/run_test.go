package conversation

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"ohwatch/model"
	"ohwatch/tui"
	"ohwatch/tui/internal/tuitest"
)

// TestRunEndsByHowTheUserLeft runs the real program on a fake terminal:
// Ctrl-C (a key in raw mode, the terminal's SIGINT) ends it with
// ErrInterrupted, q with nil, and a cancelled context (a signal caught by
// the caller) with nil, the caller knowing why.
func TestRunEndsByHowTheUserLeft(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		input  string
		cancel bool
		want   error
	}{
		{"ctrl+c", "\x03", false, tui.ErrInterrupted},
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
				done <- run(ctx, Options{Log: tuitest.Generated(t, 50, 1), Title: "t"},
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

// TestRunEndsUnreachable: quitting a live session that never connected,
// or whose key the server rejected, ends Run with ErrUnreachable naming
// the cause (exit 4, as headless); a session that was live and then lost
// its connection ends with nil.
func TestRunEndsUnreachable(t *testing.T) {
	t.Parallel()
	live := model.ConnState{Phase: model.PhaseLive}
	refused := model.ConnState{Phase: model.PhaseLost, Final: true, Code: "connect", Reason: "dial tcp: connect: connection refused"}
	auth := model.ConnState{Phase: model.PhaseLost, Final: true, Code: "auth", Reason: "authentication rejected (close 4001)"}
	for _, tc := range []struct {
		name  string
		conns []model.ConnState
		want  string // "" for nil
	}{
		{"refused", []model.ConnState{refused}, "nothing listens at http://127.0.0.1:8000"},
		{"key rejected after live", []model.ConnState{live, auth}, "the server rejected the session key"},
		{"lost after live", []model.ConnState{live, refused}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			in, keys := io.Pipe()
			defer keys.Close()
			feed := make(chan model.Batch)
			done := make(chan error, 1)
			go func() {
				done <- run(ctx, Options{Log: tuitest.Generated(t, 5, 1), Live: true, Feed: feed, Server: "http://127.0.0.1:8000"},
					tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24))
			}()
			for _, c := range tc.conns {
				feed <- model.Batch{Conn: &c}
			}
			// The feed is read again only after the last batch was applied.
			feed <- model.Batch{}
			if _, err := keys.Write([]byte("q")); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-done:
				if tc.want == "" {
					if err != nil {
						t.Fatalf("Run = %v, want nil", err)
					}
					return
				}
				if !errors.Is(err, tui.ErrUnreachable) || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("Run = %v, want ErrUnreachable with %q", err, tc.want)
				}
			case <-time.After(15 * time.Second):
				t.Fatal("the program did not end")
			}
		})
	}
}
