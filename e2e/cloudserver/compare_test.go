package cloudserver

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestComparePausedAndLive: the same script run twice, one side paused
// (read from the events Cloud stored, by this server's older route: the
// newer one answers 404 here) and one running (read from its sandbox's
// agent-server), compares equal. Cloud's search returns stored events by
// file name, one-second resolution and grouped by kind: read as given, the
// paused side folded out of order and diverged at row 0; its full_state
// snapshots, which no agent-server log holds, must not count either.
func TestComparePausedAndLive(t *testing.T) {
	parallel(t)
	a, sbA := shared.startConv(t, "STEPS=3")
	b, _ := shared.startConv(t, "STEPS=3")
	for _, id := range []string{a, b} {
		if r := shared.ohwatch(t, "cloud", "--conversation", id, "--headless"); r.code != 0 {
			t.Fatalf("watching %s to its end: exit %d\n%s", id, r.code, r.stderr)
		}
	}
	shared.awaitStoredEnd(t, a)
	shared.pause(t, sbA)

	r := shared.ohwatch(t, "compare", "cloud:"+hex(a), "cloud:"+hex(b))
	if r.code != 0 {
		t.Fatalf("compare: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "the runs do not differ") {
		t.Errorf("compare of the same script diverges:\n%s", r.stdout)
	}
	for _, row := range []string{"steps", "events"} {
		f := fieldsOf(r.stdout, row)
		if len(f) != 3 || f[1] != f[2] {
			t.Errorf("compare: %s row %q, want the same on both sides:\n%s", row, f, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "paused") {
		t.Errorf("compare does not say side A is paused:\n%s", r.stdout)
	}
	if strings.Contains(r.stderr, "may be out of place") {
		t.Errorf("stored events with microsecond timestamps were found ambiguous:\n%s", r.stderr)
	}

	// The fleet lists both, the paused one as paused (its sandbox left
	// asleep), the live one finished.
	r = shared.ohwatch(t, "fleet", "cloud", "--headless", "--json", "--until", "all")
	rows := fleetRows(t, r.stdout)
	ra, rb := rows[hex(a)], rows[hex(b)]
	if ra == nil || rb == nil {
		t.Fatalf("fleet lacks %s or %s (exit %d):\n%s\n%s", a, b, r.code, r.stdout, r.stderr)
	}
	if rb["status"] != "finished" || ra["reason"] != nil && strings.Contains(ra["reason"].(string), "404") {
		t.Errorf("fleet: the paused run %v, the live one %v", ra, rb)
	}
	if st := shared.sandboxStatus(t, a); st != "PAUSED" {
		t.Errorf("the fleet left the paused sandbox %s", st)
	}
	text := shared.ohwatch(t, "fleet", "cloud", "--headless", "--until", "all")
	if !strings.Contains(text.stdout, hex(a)) || !strings.Contains(text.stdout, "every conversation ended") {
		t.Errorf("fleet text (exit %d):\n%s\n%s", text.code, text.stdout, text.stderr)
	}

	// ls cloud: both, finished, with the events Cloud stored and a cost.
	r = shared.ohwatch(t, "ls", "cloud", "--json")
	if r.code != 0 {
		t.Fatalf("ls cloud: exit %d\n%s", r.code, r.stderr)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
		t.Fatalf("ls cloud --json: %v\n%s", err, r.stdout)
	}
	byID := map[string]map[string]any{}
	for _, row := range list {
		byID[row["id"].(string)] = row
	}
	la, lb := byID[hex(a)], byID[hex(b)]
	if la == nil || lb == nil {
		t.Fatalf("ls cloud lacks %s or %s:\n%s", a, b, r.stdout)
	}
	if la["status"] != "finished" || la["events"] != lb["events"] || la["cost_known"] != true {
		t.Errorf("ls cloud: paused %v, live %v", la, lb)
	}
	r = shared.ohwatch(t, "ls", "cloud")
	if r.code != 0 || !strings.Contains(r.stdout, "ID") || !strings.Contains(r.stdout, hex(a)) {
		t.Errorf("ls cloud text: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// fieldsOf is the row of compare's table that starts with name, split
// into fields.
func fieldsOf(out, name string) []string {
	for line := range strings.Lines(out) {
		if f := strings.Fields(line); len(f) > 0 && f[0] == name {
			return f
		}
	}
	return nil
}

// fleetRows is the last line a fleet --json printed for each conversation.
func fleetRows(t *testing.T, out string) map[string]map[string]any {
	t.Helper()
	rows := map[string]map[string]any{}
	for _, d := range jsonLines(t, out) {
		if id, ok := d["id"].(string); ok && (d["type"] == "status" || d["type"] == "ended") {
			rows[id] = d
		}
	}
	return rows
}
