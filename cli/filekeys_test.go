package cli

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recordingEchoingKey writes a JSONL recording in which the agent echoed
// key: in the user's first message (so in the title), as is in a command's
// output, and base64 and hex in another.
func recordingEchoingKey(t *testing.T, key string) string {
	t.Helper()
	msg := func(id, parent, source, role, text string) string {
		return fmt.Sprintf(`{"id":%q,"timestamp":"2026-03-14T09:50:5%s","source":%q,"parent_id":%q,"llm_message":{"role":%q,"content":[{"type":"text","text":%q}]},"kind":"MessageEvent"}`,
			id, id[len(id)-1:], source, parent, role, text)
	}
	lines := []string{
		msg("5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e61", "", "user", "user", "deploy with "+key+" please"),
		msg("5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e62", "5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e61", "agent", "assistant", "env says SESSION_API_KEY="+key),
		msg("5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e63", "5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e62", "agent", "assistant",
			"encoded: "+base64.StdEncoding.EncodeToString([]byte("Bearer "+key))+" and "+hex.EncodeToString([]byte(key))),
	}
	path := filepath.Join(t.TempDir(), "echoed.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// keyForms is key as is and the forms the recording above echoes it in.
func keyForms(key string) []string {
	return []string{key, base64.StdEncoding.EncodeToString([]byte("Bearer " + key))[12:30], hex.EncodeToString([]byte(key))}
}

// TestRecordingsKeepTheEnvironmentsKeysSecret replays, states and exports
// a recording in which the agent echoed the session key, with that key
// in SESSION_API_KEY: no form of it reaches stdout, stderr, an export file
// or a --record directory. Without the key set, the same commands print
// it, so the recording does hold it.
func TestRecordingsKeepTheEnvironmentsKeysSecret(t *testing.T) {
	const key = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c6b5a4"
	path := recordingEchoingKey(t, key)
	dir := t.TempDir()
	commands := [][]string{
		{"replay", path, "--headless"},
		{"replay", path, "--headless", "--json", "--record", filepath.Join(dir, "rec")},
		{"state", path},
		{"state", path, "--json"},
		{"export", path, "--format", "md"},
		{"export", path, "--format", "jsonl", "-o", filepath.Join(dir, "export.jsonl")},
	}
	found := func(env map[string]string) map[string][]string {
		os.RemoveAll(dir)
		os.MkdirAll(dir, 0o755)
		seen := map[string][]string{}
		for _, args := range commands {
			code, out, errs := runCmd(t, env, args...)
			if code != 0 && args[0] != "replay" {
				t.Fatalf("%v: exit %d\n%s", args, code, errs)
			}
			for _, form := range keyForms(key) {
				if strings.Contains(out+errs, form) {
					seen[strings.Join(args[:2], " ")] = append(seen[strings.Join(args[:2], " ")], form)
				}
			}
		}
		filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() {
				b, _ := os.ReadFile(p)
				for _, form := range keyForms(key) {
					if strings.Contains(string(b), form) {
						seen[p] = append(seen[p], form)
					}
				}
			}
			return nil
		})
		return seen
	}
	if seen := found(nil); len(seen) == 0 {
		t.Fatal("without the key set the commands print no form of it: the recording does not hold it")
	}
	if seen := found(map[string]string{"SESSION_API_KEY": key}); len(seen) > 0 {
		t.Errorf("with SESSION_API_KEY set, the key was printed or written: %v", seen)
	}
	if seen := found(map[string]string{"OH_API_KEY": key}); len(seen) > 0 {
		t.Errorf("with OH_API_KEY set, the key was printed or written: %v", seen)
	}
}

// TestFleetOfALocalRootKeepsTheEnvironmentsKeysSecret: a local root
// holding a conversation in which the agent echoed the session key, its
// first message (the listed title) included; the fleet's lines and ls,
// text and JSON, hold no form of it when SESSION_API_KEY is set, and do
// without.
func TestFleetOfALocalRootKeepsTheEnvironmentsKeysSecret(t *testing.T) {
	const key = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c6b5a4"
	lines, err := os.ReadFile(recordingEchoingKey(t, key))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	events := filepath.Join(root, "5d6e0c1a2b3c4d5e8f901a2b3c4d5e60", "events")
	if err := os.MkdirAll(events, 0o755); err != nil {
		t.Fatal(err)
	}
	all := append(strings.Split(strings.TrimSpace(string(lines)), "\n"),
		`{"id":"5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e64","timestamp":"2026-03-14T09:50:59","source":"environment","key":"execution_status","value":"finished","kind":"ConversationStateUpdateEvent"}`)
	for i, line := range all {
		name := fmt.Sprintf("event-%05d-5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e6%d.json", i, i+1)
		if err := os.WriteFile(filepath.Join(events, name), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A base state saying finished makes the recording's end final, so
	// --until all ends at once.
	base := `{"id":"5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e60","execution_status":"finished"}`
	if err := os.WriteFile(filepath.Join(filepath.Dir(events), "base_state.json"), []byte(base), 0o644); err != nil {
		t.Fatal(err)
	}
	printed := func(env map[string]string) []string {
		var seen []string
		for _, args := range [][]string{
			{"fleet", root, "--headless", "--until", "all", "--watch-timeout", "20s"},
			{"fleet", root, "--headless", "--until", "all", "--watch-timeout", "20s", "--json"},
			{"ls", root},
			{"ls", root, "--json"},
		} {
			_, out, errs := runCmd(t, env, args...)
			for _, form := range keyForms(key) {
				if strings.Contains(out+errs, form) {
					seen = append(seen, fmt.Sprintf("%v: %s", args, form))
				}
			}
		}
		return seen
	}
	if len(printed(nil)) == 0 {
		t.Fatal("without the key set the fleet prints no form of it: the test shows nothing")
	}
	if seen := printed(map[string]string{"SESSION_API_KEY": key}); len(seen) > 0 {
		t.Errorf("with SESSION_API_KEY set, the fleet printed %v", seen)
	}
}
