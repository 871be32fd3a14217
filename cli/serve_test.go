package cli

import (
	"bufio"
	"context"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"ohwatch/session"

	"github.com/coder/websocket"

	"ohwatch/serve"
)

// TestServeFaultFlags parses every fault `serve -h` documents through the
// command's own flags.
func TestServeFaultFlags(t *testing.T) {
	rec := twin(t, "simple_echo_hello_world")
	cases := []struct {
		faults []string
		want   serve.Faults
	}{
		{nil, serve.Faults{}},
		{[]string{"drop-every=50"}, serve.Faults{DropAfterFrames: 50}},
		{[]string{"drop-at=3,7", "drop-at=12"}, serve.Faults{DropAtFrames: []int{3, 7, 12}}},
		{[]string{"drop-chance=0.25", "seed=42"}, serve.Faults{DropChance: 0.25, Seed: 42}},
		{[]string{"stale-state"}, serve.Faults{StaleState: true}},
		{[]string{"double-send"}, serve.Faults{ReplayOverlap: 10}},
		{[]string{"double-send=3"}, serve.Faults{ReplayOverlap: 3}},
		{[]string{"silence-after=20"}, serve.Faults{SilentAfter: 20}},
		{[]string{"close=4001"}, serve.Faults{CloseAuth: 1}},
		{[]string{"close=1013:3", "close=4001:2"}, serve.Faults{CloseBusy: 3, CloseAuth: 2}},
		{[]string{"no-tree"}, serve.Faults{NoTree: true}},
		{[]string{"stale-state", "drop-every=5", "silence-after=9"}, serve.Faults{StaleState: true, DropAfterFrames: 5, SilentAfter: 9}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.faults, " "), func(t *testing.T) {
			args := []string{rec, "--addr", "127.0.0.1:0"}
			for _, f := range c.faults {
				args = append(args, "--fault", f)
			}
			var errs strings.Builder
			cfg, code, ok := parseServe(args, &errs)
			if !ok {
				t.Fatalf("exit %d: %s", code, errs.String())
			}
			if !reflect.DeepEqual(cfg.faults, c.want) {
				t.Fatalf("faults %+v, want %+v", cfg.faults, c.want)
			}
			// What the server prints it injects reads back the same.
			var again serve.Faults
			if s := cfg.faults.String(); s != "none" {
				for _, spec := range strings.Fields(s) {
					if err := serve.ParseFault(spec, &again); err != nil {
						t.Fatalf("%q does not parse back: %v", spec, err)
					}
				}
			}
			if !reflect.DeepEqual(again, c.want) {
				t.Fatalf("%q reads back as %+v", cfg.faults.String(), again)
			}
		})
	}
}

func TestServeBadFaultIsAUsageError(t *testing.T) {
	rec := twin(t, "simple_echo_hello_world")
	for _, spec := range []string{"explode", "drop-every", "drop-every=0", "drop-every=x", "drop-at=1,,2", "drop-chance=2", "drop-chance=NaN",
		"stale-state=1", "close=4004", "close=4001:0", "silence-after=-1", "seed=-3", ""} {
		t.Run(spec, func(t *testing.T) {
			code, out, errs := runCmd(t, nil, "serve", rec, "--fault", spec)
			if code != exitUsage || out != "" {
				t.Fatalf("exit %d, stdout %q", code, out)
			}
			lines := strings.Split(strings.TrimSpace(errs), "\n")
			if len(lines) != 2 || !strings.Contains(lines[0], "--fault") || !strings.Contains(lines[1], "hint:") {
				t.Fatalf("not one line naming the mistake and a hint:\n%s", errs)
			}
		})
	}
}

// TestServeInjectsTheFault runs the command with --fault close=4001: the
// server it starts closes the first socket as a wrong key would, and says
// what it injects.
func TestServeInjectsTheFault(t *testing.T) {
	cfg, code, ok := parseServe([]string{twin(t, "simple_echo_hello_world"), "--addr", "127.0.0.1:0", "--speed", "0", "--fault", "close=4001"}, io.Discard)
	if !ok {
		t.Fatalf("exit %d", code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, ids, lines, done := startServeCmd(t, ctx, cfg)
	var injecting string
	for _, line := range lines {
		if strings.Contains(line, "injecting faults:") {
			injecting = line
		}
	}
	if !strings.Contains(injecting, "close=4001:1") || url == "" || len(ids) != 1 {
		t.Fatalf("startup lines: url %q, faults %q, ids %q", url, injecting, ids)
	}
	id := ids[0]
	dctx, dcancel := context.WithTimeout(ctx, 5*time.Second)
	defer dcancel()
	conn, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(url, "http")+"/sockets/events/"+id, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	if _, _, err := conn.Read(dctx); websocket.CloseStatus(err) != 4001 {
		t.Fatalf("first socket: %v, want close 4001", err)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop with its context")
	}
}

// startServeCmd runs serve's command with cfg until ctx ends and reads
// its startup lines: the URL, the served conversation ids in order, and
// every line. done receives the exit code.
func startServeCmd(t *testing.T, ctx context.Context, cfg serveConfig) (url string, ids, lines []string, done chan int) {
	t.Helper()
	r, w := io.Pipe()
	env := &session.Env{Stdout: w, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	done = make(chan int, 1)
	go func() { done <- serveRecordings(ctx, env, cfg); w.Close() }()
	sc := bufio.NewScanner(r)
	served := -1 // "serving N conversation(s)": N lines of ids follow
	for len(ids) != served && sc.Scan() {
		line := sc.Text()
		lines = append(lines, line)
		switch {
		case strings.HasPrefix(line, "serving "):
			f := strings.Fields(line)
			served, _ = strconv.Atoi(f[1])
			url = strings.TrimSuffix(f[4], ",")
		case strings.Contains(line, "--conversation "):
			ids = append(ids, strings.Fields(strings.SplitN(line, "--conversation ", 2)[1])[0])
		}
	}
	go io.Copy(io.Discard, r)
	return url, ids, lines, done
}

// TestServeConfirmHold: at the recorded pace the replay waits for an answer
// at waiting_for_confirmation; at --speed 0 (everything at once) it does not.
func TestServeConfirmHold(t *testing.T) {
	rec := twin(t, "confirmation_mode")
	cases := []struct {
		args []string
		want time.Duration
	}{
		{nil, serve.UntilAnswered},
		{[]string{"--confirm-hold", "2m"}, 2 * time.Minute},
		{[]string{"--confirm-hold", "0"}, 0},
		{[]string{"--speed", "0"}, 0},
		{[]string{"--speed", "0", "--confirm-hold", "1m"}, 0},
	}
	for _, c := range cases {
		cfg, code, ok := parseServe(append([]string{rec}, c.args...), io.Discard)
		if !ok {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		if got := cfg.options("", nil).ConfirmHold; got != c.want {
			t.Errorf("%v: hold %s, want %s", c.args, got, c.want)
		}
	}
	code, _, errs := runCmd(t, nil, "serve", rec, "--confirm-hold", "-1s")
	if code != exitUsage || !strings.Contains(errs, "not until-answered or a duration of 0 or more") {
		t.Errorf("negative hold: exit %d, %s", code, errs)
	}
}

// parseServe parses serve's arguments as `ohwatch serve` does, without
// serving; on failure it has printed why and returns the exit code.
func parseServe(args []string, stderr io.Writer) (serveConfig, int, bool) {
	var got serveConfig
	cmd := serveCommand(func(cfg serveConfig) error { got = cfg; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	if err := cmd.Execute(); err != nil {
		return got, reportUsage(stderr, "serve", err), false
	}
	return got, 0, true
}
