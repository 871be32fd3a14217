package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/gen"
	"ohwatch/headless"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

// guardConv is the conversation the guard tests serve.
const guardConv = "5e0c1a2b3c4d4e5f8a9b0c1d2e3f4a5b"

// servePaced serves a generated conversation at a pace a pause lands
// within (twenty times the recorded one) and returns its URL.
func servePaced(t *testing.T, faults serve.Faults) (*serve.Server, string, []model.Event) {
	t.Helper()
	evs := testevents.Generated(t, 300, 3)
	srv := serve.New(serve.Options{Speed: 20, Inject: faults})
	srv.Add(guardConv, nil, evs)
	url, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv, url, evs
}

// guardLines are the "guard" JSON lines of a headless run's output.
func guardLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["type"] == "guard" {
			lines = append(lines, m)
		}
	}
	return lines
}

func TestWatchGuardPausesTheServerAndExits8(t *testing.T) {
	t.Parallel()
	_, url, _ := servePaced(t, serve.Faults{})
	code, out, errs := runCmd(t, nil, "watch", url, "--conversation", guardConv, "--headless", "--json", "--guard", "steps>20:pause")
	if code != headless.ExitGuard {
		t.Fatalf("exit %d, want 8\n%s", code, errs)
	}
	lines := guardLines(t, out)
	if len(lines) != 1 || lines[0]["rule"] != "steps>20:pause" || lines[0]["metric"] != "steps" || lines[0]["value"] != 21.0 ||
		lines[0]["limit"] != 20.0 || lines[0]["action"] != "pause" || lines[0]["result"] != "pause accepted by the server" || lines[0]["event_id"] == "" {
		t.Fatalf("guard lines %v", lines)
	}
	c, _ := agentserver.New(url, "")
	ctx := context.Background()
	info, err := c.Conversation(ctx, guardConv)
	if err != nil || info.ExecutionStatus != model.StatusPaused {
		t.Fatalf("the server reports %v, %v; want paused", info, err)
	}
	evs, _ := c.Events(ctx, guardConv)
	paused := false
	for _, ev := range evs {
		paused = paused || ev.Kind == model.KindPause
	}
	if !paused {
		t.Error("no PauseEvent on the server")
	}
	// /run resumes it.
	if err := c.Run(ctx, guardConv); err != nil {
		t.Fatal(err)
	}
	if info, _ := c.Conversation(ctx, guardConv); info.ExecutionStatus == model.StatusPaused {
		t.Errorf("still paused after /run")
	}

	// The same rule over the recording trips at the same event, every time.
	dir := t.TempDir()
	if err := gen.WriteDir(dir, gen.Options{Events: 300, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		code, rout, _ := runCmd(t, nil, "replay", dir, "--headless", "--json", "--guard", "steps>20:pause")
		dry := guardLines(t, rout)
		if code != headless.ExitGuard || len(dry) != 1 || dry[0]["result"] != "dry-run" || dry[0]["event_id"] != lines[0]["event_id"] {
			t.Fatalf("replay: exit %d, %v; live tripped at %v", code, dry, lines[0]["event_id"])
		}
	}
}

func TestGuardInterruptFallsBackToPauseOnAnOlderServer(t *testing.T) {
	t.Parallel()
	_, url, _ := servePaced(t, serve.Faults{NoInterrupt: true})
	code, out, errs := runCmd(t, nil, "watch", url, "--conversation", guardConv, "--headless", "--guard", "steps>5:interrupt")
	if code != headless.ExitGuard {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "this server has no /interrupt (404): pause sent instead and accepted") || !strings.Contains(out, "stopped by a guard: steps>5:interrupt interrupted the run") {
		t.Errorf("output does not say it paused instead:\n%s", out)
	}
}

func TestGuardRuleErrorIsAUsageError(t *testing.T) {
	code, _, errs := runCmd(t, nil, "replay", twin(t, "simple_echo_hello_world"), "--headless", "--guard", "speed>3")
	if code != exitUsage || !strings.Contains(errs, `unknown metric "speed"`) {
		t.Errorf("exit %d: %s", code, errs)
	}
}

// TestFleetGuardIsAWatchdog: a fleet watch with a pause guard stops each
// conversation of an agent-server as it passes the limit, reports each
// trip, and --until all ends with the worst outcome: stopped by a guard.
func TestFleetGuardIsAWatchdog(t *testing.T) {
	t.Parallel()
	ids := []string{"5e0c1a2b3c4d4e5f8a9b0c1d2e3f4a01", "5e0c1a2b3c4d4e5f8a9b0c1d2e3f4a02"}
	srv := serve.New(serve.Options{Speed: 20})
	for i, id := range ids {
		srv.Add(id, nil, testevents.Generated(t, 300, int64(3+i)))
	}
	url, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	// Until a replay has sent its first status the server lists it idle,
	// at rest, and --until all would end at once without watching it.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for _, id := range ids {
		if err := srv.WaitStatus(ctx, id, model.StatusRunning); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runCmd(t, nil, "fleet", url, "--headless", "--json", "--until", "all", "--guard", "steps>20:pause")
	if code != headless.ExitGuard {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	lines := guardLines(t, out)
	if len(lines) != 2 || lines[0]["id"] == lines[1]["id"] || lines[0]["result"] != "pause accepted by the server" || lines[1]["result"] != "pause accepted by the server" {
		t.Fatalf("guard lines %v\n%s\n%s", lines, out, errs)
	}
	if !strings.Contains(out, `"stopped by a guard":2`) {
		t.Errorf("the result does not count two stopped by a guard:\n%s", out)
	}
	c, _ := agentserver.New(url, "")
	for _, id := range ids {
		if info, err := c.Conversation(context.Background(), id); err != nil || info.ExecutionStatus != model.StatusPaused {
			t.Errorf("%s: %v, %v; want paused", id, info, err)
		}
	}
}

// TestIdleGuardTripsWhileNothingArrives: a run that stalls (the recording
// waits five seconds before its next event) trips an idle guard, set above
// the recorded gaps before the stall, between events, which pauses it.
func TestIdleGuardTripsWhileNothingArrives(t *testing.T) {
	t.Parallel()
	b := gen.NewBuilder(9, gen.DefaultStart(), gen.DefaultEnvironment())
	var evs []model.Event
	add := func(raw []byte) {
		ev, err := model.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	add(b.User("build it"))
	add(b.Status(model.StatusRunning))
	r := b.CallLLM(time.Second, 30, "", "")
	add(b.Stats())
	a := b.Terminal(r, "make", 0, "build", "LOW")
	add(a.Raw)
	b.Advance(time.Hour) // a stall: served as MaxGap
	add(b.TerminalResult(a, "ok", 0))
	srv := serve.New(serve.Options{Speed: 1})
	srv.Add(guardConv, nil, evs)
	url, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	code, out, errs := runCmd(t, nil, "watch", url, "--conversation", guardConv, "--headless", "--guard", "idle>3s:pause")
	if code != headless.ExitGuard || !strings.Contains(out, "guard idle>3s:pause tripped between events") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}
