package cloudserver

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The suite's shared state, set up once by TestMain.
var (
	// kit is ../shared/app-server: run_app_server.sh, start_cloud_conv.py.
	kit string
	// ohwatchBin is the ohwatch binary built for the suite.
	ohwatchBin string
	// shared is the app server most tests share: this snapshot's own
	// (older) stored-events route only, events posted by the sandboxes'
	// webhooks in batches flushed after flushDelay.
	shared *appServer
	// bare is an app server with the newer stored-events route and no
	// webhooks: Cloud stores nothing its sandboxes do.
	bare *appServer
	// doomed is the app server of the test that stops it mid-watch.
	doomed *appServer
)

// flushDelay is the shared server's webhook flush delay (seconds): short
// for the suite's wall time, long enough that a sandbox deleted as soon as
// its run ends has not posted its last batch.
const flushDelay = "3"

// TestMain finds the kit, builds ohwatch once and starts the app servers
// (each some seconds); every one is stopped, with the
// sandboxes it started, before the suite exits.
func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	flag.Parse()
	root, err := findModuleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "cloudserver:", err)
		return 1
	}
	kit = filepath.Join(filepath.Dir(root), "shared", "app-server")
	if _, err := os.Stat(filepath.Join(kit, "run_app_server.sh")); err != nil {
		if os.Getenv("OHWATCH_UPSTREAM_REQUIRED") == "1" {
			fmt.Fprintln(os.Stderr, "../shared/app-server not found: OHWATCH_UPSTREAM_REQUIRED=1 needs the real app server")
			return 1
		}
		fmt.Println("../shared/app-server not found: real app server tests skipped")
		return 0
	}
	tmp, err := os.MkdirTemp("", "ohwatch-cloudserver-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cloudserver:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	ohwatchBin = filepath.Join(tmp, "ohwatch")

	var wg sync.WaitGroup
	var buildErr error
	wg.Go(func() {
		build := exec.Command("go", "build", "-o", ohwatchBin, ".")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	servers := []struct {
		s   **appServer
		dir string
		env []string
	}{
		{&shared, "shared", []string{"CLOUDKIT_WEBHOOK_FLUSH_DELAY=" + flushDelay}},
		{&bare, "bare", []string{"CLOUDKIT_NEWER_EVENTS_ROUTE=1", "CLOUDKIT_WEBHOOKS=0"}},
		{&doomed, "doomed", nil},
	}
	// One after the other, beside the build: the kit gives a start 60 s,
	// and starts side by side on a busy machine take longer than that.
	errs := make([]error, len(servers))
	for i, sv := range servers {
		*sv.s, errs[i] = startApp(filepath.Join(tmp, sv.dir), sv.env)
		if errs[i] != nil {
			break
		}
	}
	wg.Wait()
	defer func() {
		for _, sv := range servers {
			if *sv.s != nil {
				(*sv.s).stop()
			}
		}
	}()
	for _, err := range append(errs, buildErr) {
		if err != nil {
			fmt.Fprintln(os.Stderr, "cloudserver:", err)
			return 1
		}
	}
	code := m.Run()
	if code != 0 {
		// What the app servers said is half of any failure's story.
		for _, sv := range servers {
			if *sv.s != nil {
				(*sv.s).showErrors()
			}
		}
	}
	return code
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

// appServer is one app server the suite started.
type appServer struct {
	dir string // its RUNDIR
	url string // http://127.0.0.1:PORT
	mu  sync.Mutex
	off bool // stopped
	// creating is held while a test starts a sandbox: upstream's process
	// sandbox service gives a new sandbox the first port free from its
	// base, so two started at once get the same one, and the second's
	// agent-server, unable to bind, is answered for by the first's (401).
	creating sync.Mutex
}

// startApp starts an app server in dir with the suite's scripted LLM speed
// and env on top.
func startApp(dir string, env []string) (*appServer, error) {
	cmd := exec.Command(filepath.Join(kit, "run_app_server.sh"), dir)
	cmd.Env = append(append(os.Environ(), "FAKELLM_DELAY=0.2"), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("run_app_server.sh %s: %v\n%s", dir, err, out)
	}
	url, err := os.ReadFile(filepath.Join(dir, "url"))
	if err != nil {
		return nil, err
	}
	return &appServer{dir: dir, url: strings.TrimSpace(string(url))}, nil
}

// stop stops the app server and every sandbox it started; it returns once
// they are gone.
func (a *appServer) stop() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.off {
		return
	}
	a.off = true
	if out, err := exec.Command(filepath.Join(kit, "stop_app_server.sh"), a.dir).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "cloudserver: stop_app_server.sh %s: %v\n%s", a.dir, err, out)
	}
}

// showErrors prints the error lines of the app server's log.
func (a *appServer) showErrors() {
	data, err := os.ReadFile(filepath.Join(a.dir, "app.log"))
	if err != nil {
		return
	}
	var lines []string
	for line := range strings.Lines(string(data)) {
		if strings.Contains(line, "ERROR") || strings.Contains(line, "Error:") || strings.Contains(line, "rror(") {
			lines = append(lines, line)
		}
	}
	fmt.Fprintf(os.Stderr, "cloudserver: %s/app.log, its last error lines:\n%s", a.dir, strings.Join(lines[max(0, len(lines)-15):], ""))
}
