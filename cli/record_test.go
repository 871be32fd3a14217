package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"ohwatch/session"

	"ohwatch/client/files"
	"ohwatch/headless"
	"ohwatch/model"
	"ohwatch/reducer"
)

// runCmdEnv runs a command in-process with env as its environment.
func runCmdEnv(e *session.Env, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	e.Stdout, e.Stderr = &out, &errb
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	return run(args, e), out.String(), errb.String()
}

// fullDisk writes the first n files of a recording and fails the next
// `full` writes as a full disk does; after them (space freed) writes
// succeed again.
func fullDisk(n, full int) func(dir, name string, data []byte) error {
	return func(dir, name string, data []byte) error {
		n--
		if n < 0 && n >= -full {
			return &os.PathError{Op: "write", Path: filepath.Join(dir, name), Err: syscall.ENOSPC}
		}
		return os.WriteFile(filepath.Join(dir, name), data, 0o600)
	}
}

// foldedStatus is the status the events of a recording end in, without
// its base_state.json.
func foldedStatus(events []model.Event) string {
	s := reducer.Initial(nil, 0)
	for _, ev := range events {
		s = reducer.Apply(s, ev)
	}
	return s.Status
}

// TestRecordFullDiskSaysSoAtTheEndAndExits6 records a real conversation
// onto a disk that fills up after three files: the watch ends as it
// would (its verdict printed), stderr's last line says how many events
// were not written and why, the exit code is 6, and what was written is a
// consistent prefix with a base_state.json derived from it.
func TestRecordFullDiskSaysSoAtTheEndAndExits6(t *testing.T) {
	src := twin(t, "creating_agent_plan")
	all, err := files.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		full int  // writes that fail after the first three
		base bool // whether base_state.json is written at the end
	}{
		{"the disk stays full", 1 << 30, false},
		{"space comes back before the end", 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "rec")
			code, out, errs := runCmdEnv(&session.Env{RecordWrite: fullDisk(3, tc.full)}, "replay", src, "--headless", "--record", dir)
			if code != headless.ExitRecordIncomplete {
				t.Fatalf("exit %d, want %d\n%s%s", code, headless.ExitRecordIncomplete, out, errs)
			}
			if !strings.Contains(out, "terminal state reached: finished") {
				t.Errorf("the watch's own verdict is missing:\n%s", out)
			}
			lines := strings.Split(strings.TrimSpace(errs), "\n")
			want := "4 events were not written to " + dir
			if last := lines[len(lines)-1]; !strings.Contains(last, want) || !strings.Contains(last, "no space left on device") {
				t.Errorf("stderr ends with %q, want it to say %q and why", last, want)
			}
			got, err := files.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Events) != 3 || len(got.Warnings) != 0 {
				t.Fatalf("recording: %d events, warnings %q", len(got.Events), got.Warnings)
			}
			for i, ev := range got.Events {
				if !bytes.Equal(ev.Raw, all.Events[i].Raw) {
					t.Fatalf("event %d differs from the source", i)
				}
			}
			if !tc.base {
				if got.Base != nil || !strings.Contains(errs, "base_state.json") {
					t.Errorf("base state %+v; stderr must say it was not written:\n%s", got.Base, errs)
				}
				return
			}
			// The base state says what the three events on disk say,
			// marked as derived.
			if got.Base == nil || !got.Base.Derived || got.Base.ExecutionStatus != foldedStatus(got.Events) {
				t.Errorf("base state %+v, want derived %q", got.Base, foldedStatus(got.Events))
			}
		})
	}

	// A recording that succeeds exits by the watch alone.
	if code, out, errs := runCmdEnv(&session.Env{}, "replay", src, "--headless", "--record", filepath.Join(t.TempDir(), "ok")); code != headless.ExitFinished {
		t.Fatalf("a good recording: exit %d\n%s%s", code, out, errs)
	}
}

// TestRecordEndsWithADerivedBaseState: a recording of a conversation
// whose source sent no state snapshot ends with a base_state.json derived
// from its events and marked so, which a replay does not take for a
// confirmation; recording it again writes nothing twice.
func TestRecordEndsWithADerivedBaseState(t *testing.T) {
	src := twin(t, "simple_echo_hello_world")
	dir := filepath.Join(t.TempDir(), "rec")
	for range 2 {
		if code, out, errs := runCmd(t, nil, "replay", src, "--headless", "--record", dir); code != headless.ExitFinished {
			t.Fatalf("exit %d\n%s%s", code, out, errs)
		}
	}
	got, err := files.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Events) != 5 || got.Base == nil || !got.Base.Derived || got.Base.ExecutionStatus != model.StatusFinished {
		t.Fatalf("%d events, base %+v", len(got.Events), got.Base)
	}
	code, out, _ := runCmd(t, nil, "replay", dir, "--headless")
	if code != headless.ExitFinished || strings.Contains(out, "confirmed by base_state.json") {
		t.Errorf("replay of the recording: exit %d, and a derived base state must not confirm:\n%s", code, out)
	}
	// A session that adds no event leaves the base state it found, such as
	// one a server wrote, as it was.
	server := []byte(`{"agent":{"kind":"Agent"},"execution_status":"finished"}`)
	if err := os.WriteFile(filepath.Join(dir, "base_state.json"), server, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCmd(t, nil, "replay", src, "--headless", "--record", dir); code != headless.ExitFinished {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "base_state.json")); !bytes.Equal(b, server) {
		t.Errorf("base_state.json rewritten by a session that added nothing: %s", b)
	}
}

// TestRecordNeverMixesTwoConversations: --record refuses (exit 2, saying
// why) a directory that holds another conversation, and one that another
// recorder holds; the same conversation resumes without duplicates.
func TestRecordNeverMixesTwoConversations(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rec")
	if code, _, errs := runCmd(t, nil, "replay", twin(t, "simple_echo_hello_world"), "--headless", "--record", dir); code != headless.ExitFinished {
		t.Fatalf("first recording: exit %d %s", code, errs)
	}
	code, out, errs := runCmd(t, nil, "replay", twin(t, "confirmation_mode"), "--headless", "--record", dir)
	if code != exitUsage || !strings.Contains(errs, "holds a different conversation") || out != "" {
		t.Fatalf("another conversation: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	if got, _ := files.Load(dir); got == nil || len(got.Events) != 5 {
		t.Fatalf("the recording changed")
	}

	held, err := files.OpenRecorder(context.Background(), dir, files.RecorderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCmd(t, nil, "replay", twin(t, "simple_echo_hello_world"), "--headless", "--record", dir)
	held.Close()
	if code != exitUsage || !strings.Contains(errs, "another ohwatch is recording into it") {
		t.Fatalf("a held directory: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCmd(t, nil, "replay", twin(t, "simple_echo_hello_world"), "--headless", "--record", dir); code != headless.ExitFinished {
		t.Fatalf("resuming the same conversation: exit %d %s", code, errs)
	}
	if got, _ := files.Load(dir); got == nil || len(got.Events) != 5 {
		t.Fatalf("resuming duplicated events")
	}
	if _, err := os.Stat(filepath.Join(dir, files.LockName)); errors.Is(err, os.ErrNotExist) {
		t.Error("no lock file")
	}
}
