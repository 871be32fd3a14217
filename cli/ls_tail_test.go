package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ohwatch/format"
	"ohwatch/gen"
)

// bytesRead is how many bytes this process has read from files so far
// (rchar of /proc/self/io); ok is false where that is not known.
func bytesRead(t *testing.T) (n int64, ok bool) {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, found := strings.CutPrefix(line, "rchar: "); found {
			n, err := strconv.ParseInt(v, 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// dirSize is the size of the files under dir.
func dirSize(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		n += info.Size()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestListReadsOnlyTheTailOfALongConversation: `ls` of a root holding a
// long conversation whose base_state.json does not state its status (the
// CLI's recordings have none) reads its last event files, not all of them,
// and still gives it the verdict `state` gives after reading everything.
// The bytes the process reads are counted, so a whole read fails it.
func TestListReadsOnlyTheTailOfALongConversation(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "0123456789abcdef0123456789abcdef")
	if err := gen.WriteDir(dir, gen.Options{Events: 4000, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "base_state.json")); err != nil {
		t.Fatal(err)
	}
	events := dirSize(t, dir)
	before, ok := bytesRead(t)
	if !ok {
		t.Skip("the bytes a process reads are not counted here (/proc/self/io)")
	}
	code, out, errs := runCmd(t, nil, "ls", root, "--json")
	after, _ := bytesRead(t)
	if code != 0 {
		t.Fatalf("ls: exit %d: %s", code, errs)
	}
	if read := after - before; read > events/4 {
		t.Fatalf("ls read %d bytes of a conversation of %d: it read the conversation, not its tail", read, events)
	}
	var docs []listing
	if err := json.Unmarshal([]byte(out), &docs); err != nil || len(docs) != 1 {
		t.Fatalf("ls --json: %v\n%s", err, out)
	}
	code, stateOut, _ := runCmd(t, nil, "state", dir, "--json")
	var state struct {
		Verdict string `json:"verdict"`
	}
	if err := json.Unmarshal([]byte(stateOut), &state); code != 0 || err != nil {
		t.Fatalf("state: exit %d, %v", code, err)
	}
	if got := docs[0]; got.Verdict != state.Verdict || got.Events != 4000 || got.Title == "" || got.LastActivity.IsZero() {
		t.Fatalf("ls gives %+v; state's verdict is %q", got, state.Verdict)
	}
}

// TestListSaysUnknownWhenTheTailDoesNotDecide: a long conversation whose
// last events only infer a status a status update long before them voids
// is not guessed: its status reads "unknown" (where `state`, reading
// everything, finds the update). A short one is folded whole.
func TestListSaysUnknownWhenTheTailDoesNotDecide(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "fedcba9876543210fedcba9876543210")
	writeStatusThenMessages(t, dir, lsTail+50)
	code, out, errs := runCmd(t, nil, "ls", root, "--json")
	var docs []listing
	if err := json.Unmarshal([]byte(out), &docs); code != 0 || err != nil || len(docs) != 1 {
		t.Fatalf("ls --json: exit %d, %v\n%s%s", code, err, out, errs)
	}
	if d := docs[0]; d.Status != "" || d.Verdict != format.Unknown || d.CostKnown || d.Events != lsTail+51 {
		t.Fatalf("ls --json gives %+v, want an unknown status and cost", d)
	}
	if _, text, _ := runCmd(t, nil, "ls", root); !strings.Contains(text, "fedcba9876543210fedcba9876543210  unknown") {
		t.Fatalf("ls text does not say unknown:\n%s", text)
	}
	if _, state, _ := runCmd(t, nil, "state", dir); !strings.Contains(state, "running (recorded, per-field)") {
		t.Fatalf("state of the recording:\n%s", state)
	}

	short := filepath.Join(t.TempDir(), "00112233445566778899aabbccddeeff")
	writeStatusThenMessages(t, short, 10)
	_, out, _ = runCmd(t, nil, "ls", short, "--json")
	if err := json.Unmarshal([]byte(out), &docs); err != nil || len(docs) != 1 || docs[0].Verdict != "running (recorded, per-field)" {
		t.Fatalf("a short conversation is folded whole: %v\n%s", err, out)
	}
}

// writeStatusThenMessages writes an SDK conversation directory without a
// base_state.json: a running status update, then n assistant messages,
// each of which would infer finished were it not for the update.
func writeStatusThenMessages(t *testing.T, dir string, n int) {
	t.Helper()
	events := filepath.Join(dir, "events")
	if err := os.MkdirAll(events, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(i int, body string) {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		raw := fmt.Sprintf(`{"id":%q,"timestamp":"2026-03-14T09:%02d:%02d","source":%s}`, id, i/60%60, i%60, body)
		if err := os.WriteFile(filepath.Join(events, fmt.Sprintf("event-%05d-%s.json", i, id)), []byte(raw), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(0, `"environment","kind":"ConversationStateUpdateEvent","key":"execution_status","value":"running"`)
	var text bytes.Buffer
	for i := 1; i <= n; i++ {
		text.Reset()
		fmt.Fprintf(&text, "reply %d", i)
		write(i, fmt.Sprintf(`"agent","kind":"MessageEvent","llm_message":{"role":"assistant","content":[{"type":"text","text":%q}]}`, text.String()))
	}
}
