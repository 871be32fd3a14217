package realserver

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// The suite's shared state, set up once by TestMain.
var (
	// kit is ../shared/agent-server: run_server.sh, serve_real.py, fakellm.py.
	kit string
	// ohwatchBin is the ohwatch binary built for the suite.
	ohwatchBin string
	// shared is the server the tests that need no server of their own use.
	shared *server
	// moduleRoot is the directory of go.mod.
	moduleRoot string
)

// TestMain finds the kit, builds ohwatch once and starts the shared server;
// every server the suite starts is killed before it exits.
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	// The servers die with the thread that started them (Pdeathsig): keep
	// this goroutine on its thread for the whole run.
	runtime.LockOSThread()
	root, err := findModuleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "realserver:", err)
		return 1
	}
	moduleRoot = root
	kit = filepath.Join(filepath.Dir(root), "shared", "agent-server")
	if _, err := os.Stat(filepath.Join(kit, "serve_real.py")); err != nil {
		if os.Getenv("OHWATCH_UPSTREAM_REQUIRED") == "1" {
			fmt.Fprintln(os.Stderr, "../shared/agent-server not found: OHWATCH_UPSTREAM_REQUIRED=1 needs the real agent-server")
			return 1
		}
		fmt.Println("../shared/agent-server not found: real agent-server tests skipped")
		return 0
	}
	tmp, err := os.MkdirTemp("", "ohwatch-realserver-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "realserver:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	ohwatchBin = filepath.Join(tmp, "ohwatch")
	build := exec.Command("go", "build", "-o", ohwatchBin, ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "realserver: go build: %v\n%s", err, out)
		return 1
	}
	shared, err = startServer(filepath.Join(tmp, "shared"), nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "realserver:", err)
		return 1
	}
	defer stopAll()
	return m.Run()
}

// findModuleRoot walks up from the working directory to go.mod.
func findModuleRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("no go.mod above %s", wd)
		}
	}
}
