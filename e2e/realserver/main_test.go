package realserver

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"ohwatch/internal/e2eproc"
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
	// spares are servers TestMain starts beside the shared one on a run
	// of the whole suite, one for each test that needs a server of its
	// own (ownServer), so that their starts overlap.
	spares = make(chan spare, 3)
	// sparesLeft is how many of those ownServer has not taken.
	sparesMu   sync.Mutex
	sparesLeft int
)

// spare is a server started ahead for ownServer, or why it did not start.
type spare struct {
	s   *server
	err error
}

// TestMain finds the kit, builds ohwatch once and starts the shared server;
// every server the suite starts is killed before it exits.
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	flag.Parse()
	// The servers die with the thread that started them (Pdeathsig): keep
	// this goroutine on its thread for the whole run.
	runtime.LockOSThread()
	root, k, code, ok := e2eproc.FindKit("realserver", "agent-server", "serve_real.py", "real agent-server")
	if !ok {
		return code
	}
	moduleRoot = root
	kit = k
	tmp, err := os.MkdirTemp("", "ohwatch-realserver-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "realserver:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	ohwatchBin = filepath.Join(tmp, "ohwatch")
	// The build and the shared server's start (each many seconds on a
	// busy machine) overlap: the build runs beside, the server starts on
	// this thread.
	built := make(chan error, 1)
	go func() {
		build := exec.Command("go", "build", "-o", ohwatchBin, ".")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			built <- fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built <- nil
	}()
	defer stopAll()
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() == "" {
		// A run of the whole suite: the servers of the tests that need
		// their own start now, beside the shared one.
		sparesLeft = cap(spares)
		for i := range cap(spares) {
			go func() {
				s, err := startServer(filepath.Join(tmp, fmt.Sprintf("own-%d", i)), nil)
				spares <- spare{s, err}
			}()
		}
	}
	shared, err = startServer(filepath.Join(tmp, "shared"), nil)
	if berr := <-built; berr != nil {
		fmt.Fprintln(os.Stderr, "realserver:", berr)
		return 1
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "realserver:", err)
		return 1
	}
	return m.Run()
}
