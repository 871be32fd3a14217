package realserver

import (
	"regexp"
	"strings"
	"testing"
)

// The session socket against upstream's own session socket: the kit run with
// AGENT_SERVER_SESSION_SOCKET=1 serves /sockets/session/{id} with
// upstream's session_socket.py (commit 328cbcc0) and session_protocol.py
// (commit 1d341d24) unmodified, PR #4807 (SDK 1.45), on the 1.43.1 server;
// unset, the route is refused (403) and ohwatch watches over
// /sockets/events as before.

// sessionServer is a server of the test's own with the session socket
// switched on.
func sessionServer(t *testing.T) *server {
	t.Helper()
	s, err := startServer(t.TempDir(), []string{"AGENT_SERVER_SESSION_SOCKET=1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", s.logTail())
		}
		s.stop()
	})
	return s
}

// sessionConnects are the after_seq of each session socket the server
// accepted, from its log (session_socket.py logs
// "session_socket_connected: ID after_seq=N").
func (s *server) sessionConnects(id string) []string {
	re := regexp.MustCompile(`session_socket_connected: ` + regexp.QuoteMeta(dashed(id)) + ` after_seq=(\S+)`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(s.log.String(), -1) {
		out = append(out, m[1])
	}
	return out
}

// noDuplicates fails when the watch printed an event twice.
func noDuplicates(t *testing.T, lines []map[string]any) {
	t.Helper()
	seen := map[string]bool{}
	for _, id := range printedIDs(lines) {
		if seen[id] {
			t.Fatalf("the watch printed %s twice:\n%s", id, summaries(lines))
		}
		seen[id] = true
	}
}

// TestSessionSocketWatchAcrossARestart: switched on, a watch runs over the
// session socket from the whole log (after_seq=-1), and after the server
// restarts mid-run it resumes after the highest contiguous seq it held:
// every event of the server printed once, in the server's order, the run
// confirmed finished.
func TestSessionSocketWatchAcrossARestart(t *testing.T) {
	t.Parallel()
	s := sessionServer(t)
	id := s.create(t, convSpec{message: "STEPS=20 DELAY=0.2"})
	w := start(t, watchArgs(s, id, "--json")...)
	w.waitLine(`"type":"event"`, "think step 3")
	afters := s.sessionConnects(id) // the restart starts a new log
	s.restart(t)
	w.waitLine(`"phase":"reconnecting"`)
	if st := s.info(t, id).ExecutionStatus; st != "running" {
		s.post(t, "/api/conversations/"+id+"/run", nil, nil)
	}
	if code := w.wait(); code != 0 {
		t.Fatalf("exit %d after the restart:\n%s", code, show(w.output()))
	}
	lines := jsonLines(t, w.output())
	assertEveryServerEvent(t, s, id, lines)
	noDuplicates(t, lines)
	afters = append(afters, s.sessionConnects(id)...)
	if len(afters) < 2 || afters[0] != "-1" {
		t.Fatalf("session sockets accepted with after_seq %v, want -1 and then a resume", afters)
	}
	for _, a := range afters[1:] {
		if a == "-1" || strings.HasPrefix(a, "-") || a == "None" {
			t.Errorf("a reconnect asked for after_seq=%s, want the seq it held: %v", a, afters)
		}
	}
}

// TestSessionSocketMessageMidWatch: a message sent while the watch is live
// makes the server publish a state update before the message it saved
// (the kit's README: durable 13, 15, 14); the watch prints the server's
// log in its order, once each.
func TestSessionSocketMessageMidWatch(t *testing.T) {
	t.Parallel()
	s := sessionServer(t)
	id := s.create(t, convSpec{noRun: true})
	w := start(t, watchArgs(s, id, "--json")...)
	w.waitLine(`"phase":"live"`)
	s.sendMessage(t, id, "STEPS=3")
	if code := w.wait(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, show(w.output()))
	}
	lines := jsonLines(t, w.output())
	assertEveryServerEvent(t, s, id, lines)
	noDuplicates(t, lines)
	if afters := s.sessionConnects(id); len(afters) != 1 || afters[0] != "-1" {
		t.Errorf("session sockets accepted with after_seq %v, want one, -1", afters)
	}
}

// TestSessionSocketSwitchedOff: the shared server (the kit as it was, no
// session socket) is watched over /sockets/events, with every event once:
// the 1.43.1 server keeps working.
func TestSessionSocketSwitchedOff(t *testing.T) {
	t.Parallel()
	id := shared.create(t, convSpec{message: "STEPS=3"})
	r := ohwatch(t, watchArgs(shared, id, "--json")...)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	lines := jsonLines(t, splitLines(r.stdout))
	assertEveryServerEvent(t, shared, id, lines)
	noDuplicates(t, lines)
	if n := len(shared.sessionConnects(id)); n != 0 {
		t.Errorf("%d session sockets on a server without them", n)
	}
	if !strings.Contains(shared.log.String(), "/sockets/events/") {
		t.Errorf("the server log shows no /sockets/events connection")
	}
}
