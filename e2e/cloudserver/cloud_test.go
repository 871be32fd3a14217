package cloudserver

import (
	"strings"
	"testing"
)

// TestMessageKeepsCloudsRecord: `cloud --message` deletes the sandbox it
// started only once Cloud has stored every event it watched. The sandbox
// posts events in batches of 5 flushed after a delay; deleting it as soon
// as the run ended lost the last batch (the finish, the final status),
// and Cloud's record read "running" for ever after.
func TestMessageKeepsCloudsRecord(t *testing.T) {
	parallel(t)
	r := shared.cloudRun(t, "--message", "STEPS=2", "--headless", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	conv := convOf(r.stderr)
	var seen []string
	for _, d := range jsonLines(t, r.stdout) {
		// The full_state snapshot a watch is sent on connecting is no
		// event of the conversation's log: Cloud stores snapshots of its
		// own.
		if ev, _ := d["event"].(map[string]any); d["type"] == "event" && ev["key"] != "full_state" {
			seen = append(seen, d["id"].(string))
		}
	}
	if conv == "" || len(seen) < 10 {
		t.Fatalf("no conversation id or too few events (%d):\n%s", len(seen), r.stderr)
	}
	for _, want := range []string{"events seen live", "deleted"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
		}
	}
	if st := shared.sandboxStatus(t, conv); st != "MISSING" {
		t.Errorf("sandbox %s after the run, want it deleted (MISSING)", st)
	}
	have := map[string]bool{}
	for _, ev := range shared.stored(t, conv) {
		have[ev.ID] = true
	}
	var lost []string
	for _, id := range seen {
		if !have[id] {
			lost = append(lost, id)
		}
	}
	if len(lost) > 0 {
		t.Errorf("Cloud stored %d of the %d events seen live; lost %v", len(seen)-len(lost), len(seen), lost)
	}
}

// TestMessageSaysWhatCloudNeverStored: when Cloud does not store the
// events (a server without webhooks) the bounded wait ends and ohwatch
// says so, plainly, before deleting the sandbox; the run's own outcome
// stands.
func TestMessageSaysWhatCloudNeverStored(t *testing.T) {
	parallel(t)
	r := bare.get(t).cloudRun(t, "--message", "STEPS=1", "--headless", "--store-timeout", "2s")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "Cloud stored only 0 of the") || !strings.Contains(r.stderr, "sandbox") {
		t.Errorf("stderr does not say what Cloud never stored:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, "deleted") {
		t.Errorf("the sandbox was not deleted after the bounded wait:\n%s", r.stderr)
	}
}

// TestKeepAndAttach: --keep leaves the sandbox running (no wait); the
// conversation is then attached to while its sandbox runs, after it is
// paused (resumed by the attach), and after it is deleted (one line, exit
// 4).
func TestKeepAndAttach(t *testing.T) {
	parallel(t)
	r := shared.cloudRun(t, "--message", "STEPS=1", "--headless", "--json", "--keep")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "kept") || strings.Contains(r.stderr, "events seen live") {
		t.Errorf("--keep: want the sandbox kept without waiting:\n%s", r.stderr)
	}
	conv := convOf(r.stderr)
	sandbox := ""
	for line := range strings.Lines(r.stderr) {
		if f := strings.Fields(line); len(f) == 4 && f[1] == "sandbox" && f[3] == "kept" {
			sandbox = f[2]
		}
	}
	if conv == "" || sandbox == "" {
		t.Fatalf("no conversation or sandbox id:\n%s", r.stderr)
	}
	t.Cleanup(func() { shared.deleteSandbox(t, sandbox) })
	if st := shared.sandboxStatus(t, conv); st != "RUNNING" {
		t.Fatalf("kept sandbox is %s", st)
	}

	r = shared.ohwatch(t, "cloud", "--conversation", conv, "--headless")
	if r.code != 0 || !strings.Contains(r.stdout, "finished") {
		t.Fatalf("attach to a running sandbox: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}

	shared.pause(t, sandbox)
	r = shared.ohwatch(t, "cloud", "--conversation", conv, "--headless")
	if r.code != 0 || !strings.Contains(r.stderr, "resuming sandbox") || !strings.Contains(r.stdout, "finished") {
		t.Fatalf("attach to a paused sandbox: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if st := shared.sandboxStatus(t, conv); st != "RUNNING" {
		t.Errorf("attach left the sandbox %s, want RUNNING (resumed, never deleted)", st)
	}

	shared.deleteSandbox(t, sandbox)
	r = shared.ohwatch(t, "cloud", "--conversation", conv, "--headless")
	if r.code != 4 {
		t.Fatalf("attach to a deleted sandbox: exit %d, want 4\n%s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "ohwatch cloud: ") || !strings.Contains(last, "MISSING") {
		t.Errorf("attach to a deleted sandbox: want one line naming its state, got:\n%s", r.stderr)
	}
}

// TestBadSandboxSpec: an unknown --sandbox-spec-id makes this app server
// answer 500 with a plain-text body; ohwatch says on one line what failed
// and exits 4.
func TestBadSandboxSpec(t *testing.T) {
	parallel(t)
	r := shared.ohwatch(t, "cloud", "--message", "STEPS=1", "--headless", "--sandbox-spec-id", "no-such-spec")
	if r.code != 4 {
		t.Fatalf("exit %d, want 4\n%s", r.code, r.stderr)
	}
	var errs []string
	for line := range strings.Lines(r.stderr) {
		if strings.HasPrefix(line, "ohwatch cloud: ") {
			errs = append(errs, line)
		}
	}
	if len(errs) != 1 {
		t.Fatalf("want one error line, got:\n%s", r.stderr)
	}
	for _, want := range []string{"creating a sandbox", "no-such-spec", "500"} {
		if !strings.Contains(errs[0], want) {
			t.Errorf("error line %q does not say %q", errs[0], want)
		}
	}
}
