package upstream

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// outcome records how orSkip ended a test, in place of a real *testing.T,
// so both endings can be checked without ending this test.
type outcome struct {
	testing.TB
	skipped, failed string
}

func (o *outcome) Helper() {}
func (o *outcome) Skip(args ...any) {
	o.skipped = fmt.Sprint(args...)
	runtime.Goexit()
}
func (o *outcome) Fatalf(format string, args ...any) {
	o.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run calls orSkip on a goroutine of its own, as the testing package
// runs a test, so that Skip and Fatalf can end it.
func run(dir string, err error) *outcome {
	o := &outcome{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		orSkip(o, dir, err)
	}()
	<-done
	return o
}

// bareClone is a module root with nothing beside it.
func bareClone(t *testing.T) string {
	root := filepath.Join(t.TempDir(), "ohwatch")
	if err := os.MkdirAll(filepath.Join(root, "reducer"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module ohwatch\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestMissingRecordingsSkipWithOneLine: on a bare clone a test needing the
// recordings skips, saying what is missing.
func TestMissingRecordingsSkipWithOneLine(t *testing.T) {
	t.Setenv(RequiredEnv, "")
	dir, err := find(filepath.Join(bareClone(t), "reducer"))
	if err == nil {
		t.Fatalf("find = %q, want an error on a bare clone", dir)
	}
	o := run(dir, err)
	if o.skipped != SkipMessage || o.failed != "" || strings.Contains(o.skipped, "\n") {
		t.Fatalf("skipped %q, failed %q; want one skip line %q", o.skipped, o.failed, SkipMessage)
	}
}

// TestMissingRecordingsFailWhenRequired: CI sets OHWATCH_UPSTREAM_REQUIRED=1
// and must fail rather than run less than the whole suite.
func TestMissingRecordingsFailWhenRequired(t *testing.T) {
	t.Setenv(RequiredEnv, "1")
	_, err := find(filepath.Join(bareClone(t), "reducer"))
	o := run("", err)
	if o.skipped != "" || !strings.Contains(o.failed, filepath.Join("shared", "testdata", "openhands")) {
		t.Fatalf("skipped %q, failed %q; want a failure naming the directory", o.skipped, o.failed)
	}
}

// TestRecordingsBesideTheRootAreFound: the directory beside the module
// root is found from any package below it.
func TestRecordingsBesideTheRootAreFound(t *testing.T) {
	root := bareClone(t)
	want := filepath.Join(filepath.Dir(root), "shared", "testdata", "openhands")
	if err := os.MkdirAll(want, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := find(filepath.Join(root, "reducer"))
	if err != nil || got != want {
		t.Fatalf("find = %q, %v; want %q", got, err, want)
	}
	if o := run(got, err); o.skipped != "" || o.failed != "" {
		t.Fatalf("skipped %q, failed %q with the recordings present", o.skipped, o.failed)
	}
}
