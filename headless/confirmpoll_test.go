package headless

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"ohwatch/model"
	"ohwatch/reducer"
)

// baseStateFile is a Confirm that reads the status of a base_state.json,
// as replay --follow's does.
func baseStateFile(path string) func(context.Context) (string, error) {
	return func(context.Context) (string, error) {
		raw, err := os.ReadFile(path)
		if err != nil {
			return "", err
		}
		base, err := model.DecodeBaseState(raw)
		if err != nil {
			return "", err
		}
		return base.ExecutionStatus, nil
	}
}

func writeStatus(t *testing.T, path, status string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(`{"execution_status":"`+status+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConfirmPollConfirmsFromBaseStateAtOnce: following a directory, a
// provisional finished is confirmed as soon as base_state.json says so —
// at once when it already does, on the next poll when the agent rewrites
// it a moment later — not after the grace period meant for a server; a
// file that never says finished is still asked once more at the end of
// the grace period, and its answer denies the finished as before.
func TestConfirmPollConfirmsFromBaseStateAtOnce(t *testing.T) {
	const grace, poll = 10 * time.Second, 150 * time.Millisecond
	for _, tc := range []struct {
		name     string
		first    string        // what base_state.json says when the finished arrives
		later    string        // what it is rewritten to, after rewrite ("" never)
		rewrite  time.Duration // when
		exit     int
		atMost   time.Duration
		atLeast  time.Duration
		wantLine string
	}{
		{"already finished", "finished", "", 0, ExitFinished, 0, 0, ">> execution_status=finished (base_state.json)"},
		{"rewritten a moment later", "running", "finished", time.Second, ExitFinished, time.Second + poll, time.Second, ">> execution_status=finished (base_state.json)"},
		{"never finished", "running", "", 0, ExitNoTerminal, 30 * time.Second, grace, "base_state.json reports running: finished not confirmed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), "base_state.json")
				writeStatus(t, path, tc.first)
				if tc.later != "" {
					go func() {
						time.Sleep(tc.rewrite)
						writeStatus(t, path, tc.later)
					}()
				}
				start := time.Now()
				r, out := run(t, feedOf(false, []model.Event{userMsg(t, "hi")}, []model.Event{perField(t, "running"), perField(t, "finished")}),
					Options{Confirm: baseStateFile(path), ConfirmSource: "base_state.json", ConfirmGrace: grace, ConfirmPoll: poll, WatchTimeout: 30 * time.Second})
				took := time.Since(start)
				if r.Exit != tc.exit {
					t.Fatalf("exit %d, want %d\n%s", r.Exit, tc.exit, out)
				}
				if took > tc.atMost || took < tc.atLeast {
					t.Errorf("ended after %s, want within [%s, %s]", took, tc.atLeast, tc.atMost)
				}
				if !strings.Contains(out, tc.wantLine) {
					t.Errorf("output lacks %q:\n%s", tc.wantLine, out)
				}
			})
		})
	}
}

// exitCause is a cancellation cause that carries an exit code, as the
// command's signal handling gives.
type exitCause struct{ code int }

func (e exitCause) Error() string { return "interrupted by SIGTERM" }
func (e exitCause) ExitCode() int { return e.code }

// TestInterruptByASignalKeepsItsExitCode: the result line and the exit
// code say which signal ended the run (143 for SIGTERM), not only 130.
func TestInterruptByASignalKeepsItsExitCode(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(exitCause{code: 143})
	var out strings.Builder
	r := Run(ctx, reducer.NewLog(nil, 0), make(chan model.Batch), Options{Out: &out, JSON: true})
	if r.Exit != 143 || !strings.Contains(out.String(), `"exit":143`) || !strings.Contains(out.String(), "SIGTERM") {
		t.Fatalf("exit %d\n%s", r.Exit, out.String())
	}
}
