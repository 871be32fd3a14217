package realserver

import (
	"fmt"
	"strings"
	"testing"
)

// watchArgs are the arguments of a headless watch of conversation id.
func watchArgs(s *server, id string, more ...string) []string {
	return append([]string{"watch", s.url(), "--conversation", id, "--headless"}, more...)
}

// printedIDs are the event ids a --json watch printed, in order.
func printedIDs(lines []map[string]any) []string {
	var ids []string
	for _, l := range lines {
		if l["type"] == "event" {
			ids = append(ids, l["id"].(string))
		}
	}
	return ids
}

// lastResult is the result line of a --json watch.
func lastResult(t *testing.T, lines []map[string]any) map[string]any {
	t.Helper()
	if len(lines) == 0 || lines[len(lines)-1]["type"] != "result" {
		t.Fatalf("the last line is not the result: %v", lines)
	}
	return lines[len(lines)-1]
}

// assertEveryServerEvent checks that the watch printed every persisted
// event of the server, in its order (the snapshots only it saw aside).
func assertEveryServerEvent(t *testing.T, s *server, id string, lines []map[string]any) {
	t.Helper()
	want := s.events(t, id)
	got := map[string]int{}
	for i, pid := range printedIDs(lines) {
		got[pid] = i
	}
	prev := -1
	for _, ev := range want {
		i, ok := got[ev.ID]
		if !ok {
			t.Fatalf("the watch did not print the server's %s %s; it printed:\n%s", ev.Kind, ev.ID, summaries(lines))
		}
		if i < prev {
			t.Fatalf("the watch printed %s out of the server's order\nthe server's order:\n%s\nthe watch printed:\n%s", ev.ID, serverOrder(want), summaries(lines))
		}
		prev = i
	}
}

// TestPlainRun: a run watched from its start ends in a confirmed finished
// (exit 0), with every event of the server printed in its order.
func TestPlainRun(t *testing.T) {
	t.Parallel()
	id := shared.create(t, convSpec{message: "STEPS=3"})
	r := ohwatch(t, watchArgs(shared, id, "--json")...)
	if r.code != 0 {
		t.Fatalf("exit %d, want 0:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	lines := jsonLines(t, splitLines(r.stdout))
	res := lastResult(t, lines)
	if res["status"] != "finished" || res["confirmed"] != true {
		t.Fatalf("result %v", res)
	}
	assertEveryServerEvent(t, shared, id, lines)
	// The result counts the conversation's events as the server and ls
	// do: the full_state snapshots only a watch sees are not among them.
	if n := len(shared.events(t, id)); int(res["events"].(float64)) != n {
		t.Errorf("the result counts %v events, the server has %d", res["events"], n)
	}
}

// TestRunLongerThanOnePage: 70 steps make over 140 events, more than one
// page of /events/search; a watch that starts once the run is over reads
// every page and prints them all.
func TestRunLongerThanOnePage(t *testing.T) {
	t.Parallel()
	id := shared.create(t, convSpec{message: "STEPS=70"})
	shared.waitStatus(t, id, "finished")
	evs := shared.events(t, id)
	if len(evs) <= 100 {
		t.Fatalf("%d events: not more than one page", len(evs))
	}
	r := ohwatch(t, watchArgs(shared, id, "--json")...)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	lines := jsonLines(t, splitLines(r.stdout))
	assertEveryServerEvent(t, shared, id, lines)
	if got := len(printedIDs(lines)); got < len(evs) {
		t.Fatalf("printed %d events, the server has %d", got, len(evs))
	}
}

// TestPauseResume: a pause shows as paused, and the run resumed from there
// ends in a confirmed finished the same watch sees.
func TestPauseResume(t *testing.T) {
	t.Parallel()
	id := shared.create(t, convSpec{message: "STEPS=12 DELAY=0.3"})
	w := start(t, watchArgs(shared, id, "--json")...)
	w.waitLine(`"type":"event"`, "think step 2")
	shared.post(t, "/api/conversations/"+id+"/pause", nil, nil)
	shared.waitStatus(t, id, "paused")
	w.waitLine(`"type":"status"`, `"status":"paused"`)
	if !w.running() {
		t.Fatal("the watch ended on paused")
	}
	shared.post(t, "/api/conversations/"+id+"/run", nil, nil)
	if code := w.wait(); code != 0 {
		t.Fatalf("exit %d after the resume:\n%s", code, show(w.output()))
	}
	assertEveryServerEvent(t, shared, id, jsonLines(t, w.output()))
}

// TestInterrupt: an interrupt shows as paused with its event, and a run
// started again finishes under the same watch.
func TestInterrupt(t *testing.T) {
	t.Parallel()
	id := shared.create(t, convSpec{message: "STEPS=12 DELAY=0.3"})
	w := start(t, watchArgs(shared, id, "--json")...)
	w.waitLine(`"type":"event"`, "think step 2")
	shared.post(t, "/api/conversations/"+id+"/interrupt", nil, nil)
	shared.waitStatus(t, id, "paused")
	w.waitLine(`"type":"status"`, `"status":"paused"`)
	shared.post(t, "/api/conversations/"+id+"/run", nil, nil)
	if code := w.wait(); code != 0 {
		t.Fatalf("exit %d after the new run:\n%s", code, show(w.output()))
	}
	assertEveryServerEvent(t, shared, id, jsonLines(t, w.output()))
}

// TestWrongKey: a rejected key is exit 4 with a one-line reason, and the
// key given never reaches the output.
func TestWrongKey(t *testing.T) {
	t.Parallel()
	id := shared.create(t, convSpec{message: "STEPS=1"})
	const wrong = "sk-wrong-key-of-the-suite"
	r := ohwatchEnvRun(t, ohwatchEnv("SESSION_API_KEY="+wrong), watchArgs(shared, id)...)
	if r.code != 4 {
		t.Fatalf("exit %d, want 4:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, wrong) {
		t.Fatal("the key reached the output")
	}
	if !strings.Contains(r.stdout+r.stderr, "401 Unauthorized") {
		t.Errorf("the reason does not say the key was refused:\n%s\n%s", r.stdout, r.stderr)
	}
}

// TestUnknownConversation: an id the server does not know is exit 4.
func TestUnknownConversation(t *testing.T) {
	t.Parallel()
	r := ohwatch(t, watchArgs(shared, "0123456789abcdef0123456789abcdef")...)
	if r.code != 4 {
		t.Fatalf("exit %d, want 4:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout+r.stderr, "not found") {
		t.Errorf("no 'not found':\n%s\n%s", r.stdout, r.stderr)
	}
}

// TestLongRiskyRun: the suite's own scripted LLM (testdata/scenario_llm.py)
// runs 12 task_tracker steps at HIGH risk, each with a several-KiB output;
// the watch flags every one HIGH and prints every event whole.
func TestLongRiskyRun(t *testing.T) {
	t.Parallel()
	id := shared.create(t, convSpec{message: "LONG=12", tracker: true, analyzer: true})
	r := ohwatch(t, watchArgs(shared, id, "--json")...)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	lines := jsonLines(t, splitLines(r.stdout))
	assertEveryServerEvent(t, shared, id, lines)
	high, big := 0, 0
	for _, l := range lines {
		if l["type"] != "event" {
			continue
		}
		if l["kind"] == "ActionEvent" && l["security_risk"] == "HIGH" {
			high++
		}
		if l["kind"] == "ObservationEvent" && len(fmt.Sprint(l["event"])) > 4000 {
			big++
		}
	}
	if high != 12 || big != 12 {
		t.Fatalf("%d HIGH-risk actions and %d large outputs, want 12 and 12", high, big)
	}
	text := ohwatch(t, watchArgs(shared, id)...)
	if n := strings.Count(text.stdout, "[HIGH risk]"); n != 12 {
		t.Errorf("the text flags %d actions HIGH, want 12:\n%s", n, text.stdout)
	}
}

// serverOrder lists the server's events, one a line, for a failure message.
func serverOrder(evs []serverEvent) string {
	var b strings.Builder
	for i, ev := range evs {
		fmt.Fprintf(&b, "  %d %s %s\n", i, ev.ID, ev.Kind)
	}
	return b.String()
}

// summaries are the event and status lines of a --json watch, short.
func summaries(lines []map[string]any) string {
	var b strings.Builder
	for _, l := range lines {
		switch l["type"] {
		case "event":
			fmt.Fprintf(&b, "  %v %v %v %v\n", l["index"], l["id"], l["kind"], l["summary"])
		case "event_json_omitted":
		default:
			fmt.Fprintf(&b, "  %v %v %v\n", l["type"], l["status"], l["message"])
		}
	}
	return b.String()
}
