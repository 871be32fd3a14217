package realserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fleetServer is a server of its own holding a finished conversation, one
// that failed, and an idle fork of the finished one: a fleet watch over
// the shared server would see every other test's conversations.
func fleetServer(t *testing.T) (s *server, finished, failed, fork string) {
	t.Helper()
	s = ownServer(t)
	finished = s.create(t, convSpec{message: "STEPS=1"})
	failed = s.create(t, convSpec{message: "FAIL"})
	s.waitStatus(t, finished, "finished")
	s.waitStatus(t, failed, "error")
	fork = s.fork(t, finished, "")
	s.waitStatus(t, fork, "idle")
	return s, finished, failed, fork
}

// TestLsAndFleet: `ls` lists the server's conversations with the server's
// status and event count; `fleet --until all` ends although a fork is at
// rest (idle, no run drives it), with the worst outcome's exit code and
// counts that name the statuses shown, in text and JSON.
func TestLsAndFleet(t *testing.T) {
	t.Parallel()
	s, finished, failed, fork := fleetServer(t)
	want := map[string]string{finished: "finished", failed: "error", fork: "idle"}

	r := ohwatch(t, "ls", s.url(), "--json")
	if r.code != 0 {
		t.Fatalf("ls: exit %d: %s", r.code, r.stderr)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatalf("ls --json: %v\n%s", err, r.stdout)
	}
	if len(rows) != 3 {
		t.Fatalf("ls lists %d conversations, want 3:\n%s", len(rows), r.stdout)
	}
	for _, row := range rows {
		b, _ := json.Marshal(row)
		id := dashed(row["id"].(string))
		status, ok := want[id]
		if !ok {
			t.Errorf("ls lists an unknown conversation: %s", b)
			continue
		}
		if row["status"] != status || int(row["events"].(float64)) != len(s.events(t, id)) {
			t.Errorf("ls says %s; the server says %s with %d events", b, status, len(s.events(t, id)))
		}
	}
	text := ohwatch(t, "ls", s.url())
	for id, status := range want {
		if !containsAll(text.stdout, strings.ReplaceAll(id, "-", ""), status) {
			t.Errorf("ls text lacks %s %s:\n%s", id, status, text.stdout)
		}
	}

	// The fork, just made, is waited for as a conversation about to run
	// would be, for the grace (30 s): the two watches run side by side.
	asJSON := start(t, "fleet", s.url(), "--headless", "--json", "--until", "all")
	asText := start(t, "fleet", s.url(), "--headless", "--until", "all")
	if code := asJSON.wait(); code != 1 {
		t.Fatalf("fleet --until all: exit %d, want 1 (an error):\n%s\n%s", code, show(asJSON.output()), asJSON.errb.String())
	}
	lines := jsonLines(t, asJSON.output())
	res := lines[len(lines)-1]
	got, _ := json.Marshal(res["outcomes"])
	if string(got) != `{"error":1,"finished":1,"idle":1}` {
		t.Errorf("outcomes %s, want error, finished and idle once each", got)
	}
	if code, out := asText.wait(), strings.Join(asText.output(), "\n"); code != 1 || !containsAll(out, "1 error", "1 finished", "1 idle") {
		t.Errorf("fleet text: exit %d:\n%s\n%s", code, out, asText.errb.String())
	}
}

// TestFleetUntilAllWaitsForConversationsNotYetRunning: a fleet started
// beside conversations the server has created but not yet run (no message
// yet: idle, no events) waits for them. Each is sent its message only once
// the fleet has listed it idle, and --until all ends on their finish,
// exit 0, both counted. Before, an idle conversation was at rest however
// new, and the watch ended on its first listing (exit 5).
func TestFleetUntilAllWaitsForConversationsNotYetRunning(t *testing.T) {
	t.Parallel()
	s := ownServer(t)
	ids := []string{s.create(t, convSpec{noRun: true}), s.create(t, convSpec{noRun: true})}
	f := start(t, "fleet", s.url(), "--headless", "--json", "--until", "all", "--interval", "500ms")
	for _, id := range ids {
		f.waitLine(`"type":"status"`, strings.ReplaceAll(id, "-", ""), `"status":"idle"`)
	}
	for i, id := range ids {
		s.sendMessage(t, id, fmt.Sprintf("STEPS=%d", i+1))
	}
	if code := f.wait(); code != 0 {
		t.Fatalf("fleet --until all: exit %d, want 0:\n%s\n%s", code, show(f.output()), f.errb.String())
	}
	lines := jsonLines(t, f.output())
	got, _ := json.Marshal(lines[len(lines)-1]["outcomes"])
	if string(got) != `{"finished":2}` {
		t.Errorf("outcomes %s, want both finished:\n%s", got, show(f.output()))
	}
}

// TestServerRestartMidWatch: the server stops in the middle of a run and
// comes back on the same port with its conversations on disk; the watch
// reconnects, and sees the run resumed to a confirmed finished.
func TestServerRestartMidWatch(t *testing.T) {
	t.Parallel()
	s := ownServer(t)
	id := s.create(t, convSpec{message: "STEPS=20 DELAY=0.2"})
	w := start(t, watchArgs(s, id, "--json")...)
	w.waitLine(`"type":"event"`, "think step 3")
	s.restart(t)
	w.waitLine(`"phase":"reconnecting"`)
	if st := s.info(t, id).ExecutionStatus; st != "running" {
		s.post(t, "/api/conversations/"+id+"/run", nil, nil)
	}
	if code := w.wait(); code != 0 {
		t.Fatalf("exit %d after the restart:\n%s", code, show(w.output()))
	}
	assertEveryServerEvent(t, s, id, jsonLines(t, w.output()))
}

// restart stops the server as a service manager would (SIGTERM, then
// SIGKILL if it lingers) and starts it again on the same port and folder.
func (s *server) restart(t *testing.T) {
	t.Helper()
	s.mu.Lock()
	if s.cmd != nil {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.done
		}
		s.cmd = nil
	}
	s.mu.Unlock()
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
}

// dashed is a 32-hex conversation id in the server's dashed form.
func dashed(id string) string {
	if len(id) != 32 {
		return id
	}
	return id[:8] + "-" + id[8:12] + "-" + id[12:16] + "-" + id[16:20] + "-" + id[20:]
}
