package cli

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The tests that run the real program share one ohwatch binary: linking
// the whole program costs seconds, and tens of seconds beside other
// builds, so it is built once per run of the package.
var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// TestMain starts the build at once on a run of the whole package, so it
// overlaps the tests that need no binary, and removes the binary at the
// end. A run of chosen tests (-run, -fuzz) builds it only if one asks.
func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() == "" && !testing.Short() {
		go binOnce.Do(buildOnce)
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// ohwatchBinary is the path of the package's ohwatch binary, built on
// first use.
func ohwatchBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(buildOnce)
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// buildOnce builds ohwatch stamped with the commit when the checkout lets
// the go command read its VCS state (the version test reads it back), and
// unstamped otherwise.
func buildOnce() {
	binDir, binErr = os.MkdirTemp("", "ohwatch-cli-test-")
	if binErr != nil {
		return
	}
	bin := filepath.Join(binDir, "ohwatch")
	if exec.Command("go", "build", "-buildvcs=auto", "-o", bin, "ohwatch").Run() == nil {
		binPath = bin
		return
	}
	if out, err := exec.Command("go", "build", "-buildvcs=false", "-o", bin, "ohwatch").CombinedOutput(); err != nil {
		binErr = fmt.Errorf("go build: %v\n%s", err, out)
		return
	}
	binPath = bin
}
