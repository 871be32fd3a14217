package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ohwatch/client/files"
	"ohwatch/headless"
)

// signalNames are the signals as ohwatch names them.
var signalNames = map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM", syscall.SIGHUP: "SIGHUP"}

// TestSignalsLeaveAConsistentRecording runs the real binary — the demo,
// live over a real WebSocket, recorded with --record — and ends it with
// each signal once events are flowing: it exits 128+signal, and the
// recording on disk is consistent: no temporary file, the events a
// gap-free prefix of the demo that loads without a warning, a
// base_state.json of the latest known state (derived ones saying what the
// events say), and the directory free for the next recorder.
func TestSignalsLeaveAConsistentRecording(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Parallel()
	bin := ohwatchBinary(t)
	_, demoEvents, err := demoConversation()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{
		{syscall.SIGINT, headless.ExitInterrupted},
		{syscall.SIGTERM, 143},
		{syscall.SIGHUP, 129},
	} {
		t.Run(signalNames[tc.sig], func(t *testing.T) {
			t.Parallel()
			rec := filepath.Join(t.TempDir(), "rec")
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "demo", "--headless", "--speed", "2", "--record", rec)
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Events are flowing once the socket is live and a few event
			// lines have followed: the signal lands mid-stream.
			lines := bufio.NewScanner(stdout)
			var seen []string
			live, events := false, 0
			for events < 4 && lines.Scan() {
				line := lines.Text()
				seen = append(seen, line)
				live = live || strings.Contains(line, "connection: live")
				if live && strings.HasPrefix(line, "  .. ") {
					events++
				}
			}
			if events < 4 {
				t.Fatalf("the demo never streamed:\n%s\n%s", strings.Join(seen, "\n"), stderr.String())
			}
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			rest, _ := io.ReadAll(stdout)
			err = cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tc.code {
				t.Fatalf("exit %v, want %d\n%s\n%s", err, tc.code, rest, stderr.String())
			}
			if !strings.Contains(string(rest), "interrupted by "+signalNames[tc.sig]) {
				t.Errorf("the last line does not name the signal:\n%s", rest)
			}
			filepath.WalkDir(rec, func(p string, d os.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, ".tmp") {
					t.Errorf("temporary file left: %s", p)
				}
				return nil
			})
			got, err := files.Load(rec)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Warnings) != 0 || len(got.Events) == 0 || len(got.Events) >= len(demoEvents) {
				t.Fatalf("recording: %d of %d events, warnings %q", len(got.Events), len(demoEvents), got.Warnings)
			}
			for i, ev := range got.Events {
				if !bytes.Equal(ev.Raw, demoEvents[i].Raw) {
					t.Fatalf("recorded event %d is not the demo's event %d:\n got %.300s\nwant %.300s\n(%d recorded)", i, i, ev.Raw, demoEvents[i].Raw, len(got.Events))
				}
			}
			if got.Base == nil || got.Base.ExecutionStatus == "" {
				t.Fatalf("no base_state.json with a status: %+v", got.Base)
			}
			if got.Base.Derived && got.Base.ExecutionStatus != foldedStatus(got.Events) {
				t.Errorf("derived base state says %q, the events %q", got.Base.ExecutionStatus, foldedStatus(got.Events))
			}
			again, err := files.OpenRecorder(context.Background(), rec, files.RecorderOptions{ConversationID: got.ID})
			if err != nil {
				t.Fatalf("the directory is not free after the signal: %v", err)
			}
			again.Close()
		})
	}
}

// TestServeEndsBySignalCode: serve, which runs until a signal, exits with
// that signal's code like every other command.
func TestServeEndsBySignalCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Parallel()
	bin := ohwatchBinary(t)
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {syscall.SIGINT, 130}} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, bin, "serve", twin(t, "simple_echo_hello_world"), "--addr", "127.0.0.1:0")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(stdout)
		if !lines.Scan() || !strings.HasPrefix(lines.Text(), "serving ") {
			t.Fatalf("serve did not start: %q", lines.Text())
		}
		cmd.Process.Signal(tc.sig)
		io.Copy(io.Discard, stdout)
		err = cmd.Wait()
		cancel()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != tc.code {
			t.Errorf("%s: exit %v, want %d", signalNames[tc.sig], err, tc.code)
		}
	}
}
