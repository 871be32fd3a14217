package cloudserver

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"ohwatch/internal/e2eproc"
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
	bare = &lazyApp{name: "bare", env: []string{"CLOUDKIT_NEWER_EVENTS_ROUTE=1", "CLOUDKIT_WEBHOOKS=0"}}
	// doomed is the app server of the test that stops it mid-watch.
	doomed = &lazyApp{name: "doomed"}
	// suiteDir holds the binary and each app server's RUNDIR.
	suiteDir string
	// python is the interpreter itself, not a version manager's shim
	// (pyenv's runs shell scripts first, seconds each on a busy machine):
	// each sandbox starts one, and the app server gives its agent-server
	// 30 s to answer.
	python = "python3"
	// pycache is where the app servers and their sandboxes keep the
	// bytecode of the kits' Python (a cache of the user's, so later runs
	// find it): without it, an environment that says
	// PYTHONDONTWRITEBYTECODE compiles some hundreds of modules again on
	// each agent-server's start, tens of seconds on a busy machine.
	pycache string
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
	root, k, code, ok := e2eproc.FindKit("cloudserver", "app-server", "run_app_server.sh", "real app server")
	if !ok {
		return code
	}
	kit = k
	tmp, err := os.MkdirTemp("", "ohwatch-cloudserver-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cloudserver:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	suiteDir = tmp
	if out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output(); err == nil && strings.TrimSpace(string(out)) != "" {
		python = strings.TrimSpace(string(out))
	}
	pycache = filepath.Join(tmp, "pycache")
	if dir, err := os.UserCacheDir(); err == nil {
		pycache = filepath.Join(dir, "ohwatch-e2e", "pycache")
	}
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
	// The shared server starts beside the build; the others, which one
	// test each uses, start one after the other beside the tests on a
	// run of the whole suite, else when a test asks for one (lazyApp):
	// the kit gives a start 60 s, and starts side by side on a busy
	// machine take longer than that.
	shared, err = startApp(filepath.Join(tmp, "shared"), []string{"CLOUDKIT_WEBHOOK_FLUSH_DELAY=" + flushDelay})
	wg.Wait()
	lazies := []*lazyApp{bare, doomed}
	defer func() {
		if shared != nil {
			shared.stop()
		}
		for _, l := range lazies {
			// Waits for a start in flight; marks one never begun done.
			l.once.Do(func() {})
			if l.s != nil {
				l.s.stop()
			}
		}
	}()
	for _, err := range []error{err, buildErr} {
		if err != nil {
			fmt.Fprintln(os.Stderr, "cloudserver:", err)
			return 1
		}
	}
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() == "" {
		go func() {
			for _, l := range lazies {
				l.once.Do(l.start)
			}
		}()
	}
	code = m.Run()
	if code != 0 {
		// What the app servers said is half of any failure's story.
		shared.showErrors()
		for _, l := range lazies {
			l.once.Do(func() {})
			if l.s != nil {
				l.s.showErrors()
			}
		}
	}
	return code
}

// lazyApp is an app server of the suite started once, by the first test
// that asks for it or beside the tests.
type lazyApp struct {
	name string
	env  []string
	once sync.Once
	s    *appServer
	err  error
}

// get is the app server, started if it has not been; a start that failed
// fails the test.
func (l *lazyApp) get(t testing.TB) *appServer {
	t.Helper()
	l.once.Do(l.start)
	if l.err != nil {
		t.Fatalf("starting the %s app server: %v", l.name, l.err)
	}
	return l.s
}

func (l *lazyApp) start() { l.s, l.err = startApp(filepath.Join(suiteDir, l.name), l.env) }

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

// sandboxBase is the first port of the suite's sandboxes: each app server
// gives its sandboxes the first free port from its own base, checked free
// and then bound by another process a moment later, so two app servers
// whose ranges meet (the kit picks a base at random, from 20000 to 39900
// in steps of 100) can hand two sandboxes one port, and one app server
// then talks to another's sandbox (404 on its conversation). The suite's
// app servers get bases a thousand apart, all below the ephemeral ports
// (32768 on) that the agent-server suite and the clients bind.
var sandboxBase = 20000 + 100*rand.IntN(60)

// sandboxPorts is the base port of the app server named name.
func sandboxPorts(name string) string {
	return "CLOUDKIT_SANDBOX_BASE_PORT=" + strconv.Itoa(sandboxBase+1000*slices.Index([]string{"shared", "bare", "doomed"}, name))
}

// startApp starts an app server in dir with the suite's scripted LLM speed,
// its own sandbox ports, and env on top.
func startApp(dir string, env []string) (*appServer, error) {
	cmd := exec.Command(filepath.Join(kit, "run_app_server.sh"), dir)
	cmd.Env = append(append(os.Environ(), "FAKELLM_DELAY=0.2", "PYTHON="+python,
		"PYTHONDONTWRITEBYTECODE=", "PYTHONPYCACHEPREFIX="+pycache, sandboxPorts(filepath.Base(dir))), env...)
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
