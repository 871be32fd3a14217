package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"ohwatch/internal/teacmds"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"ohwatch/client/files"
	"ohwatch/client/fleetsource"
	"ohwatch/fleet"
	"ohwatch/gen"
	"ohwatch/internal/upstream"
	"ohwatch/model"
	"ohwatch/reducer"
	"ohwatch/tui/conversation"
)

// TestOneVerdictEverywhere runs the five surfaces that state a recording's
// status — the TUI header, `state` (text and JSON), `ls` (text, JSON and
// the table's rows), `export` (markdown and JSON) and `replay
// --headless` (text and JSONL) — over every recording, and checks that
// they all give the same verdict: its last status is final, with where it
// came from ("finished (recorded, inferred)" for the CLI recordings, which
// carry no status of their own).
func TestOneVerdictEverywhere(t *testing.T) {
	root := t.TempDir()
	if err := gen.WriteDir(filepath.Join(root, "generated"), gen.Options{Events: 300, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	// Written an hour ago: the table reads it as a recording, not as a
	// conversation being written that it follows.
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(root, "generated", "events"), old, old); err != nil {
		t.Fatal(err)
	}
	roots := []string{shapesRoot(t), root}
	if upstream.Present(t) {
		roots = append(roots, filepath.Join(upstream.Dir(t), "trajectories"))
	}
	for _, r := range roots {
		_, lsText, _ := runCmd(t, nil, "ls", r)
		_, lsJSON, _ := runCmd(t, nil, "ls", r, "--json")
		var listed []listing
		if err := json.Unmarshal([]byte(lsJSON), &listed); err != nil {
			t.Fatalf("ls --json: %v\n%s", err, lsJSON)
		}
		table := tableVerdicts(t, r)
		entries, _ := os.ReadDir(r)
		for _, e := range entries {
			path := filepath.Join(r, e.Name())
			t.Run(e.Name(), func(t *testing.T) {
				want := fullFold(t, path)
				if !strings.Contains(want, "(recorded, ") {
					t.Fatalf("the verdict %q does not say the status is the recording's last", want)
				}
				got := map[string]string{"tui header": tuiVerdict(t, path)}
				_, out, _ := runCmd(t, nil, "state", path)
				got["state"] = field(t, out, `(?m)^status +(.+)$`)
				got["state --json"] = jsonField(t, runOut(t, "state", path, "--json"), "verdict")
				got["export --format json"] = jsonField(t, runOut(t, "export", path, "--format", "json"), "verdict")
				got["export --format md"] = field(t, runOut(t, "export", path, "--format", "md"), `(?m)^\| status \| (.+) \|$`)
				got["replay --headless"] = field(t, runOut(t, "replay", path, "--headless"),
					`(?m)^(?:terminal state reached: (.+)|no terminal state reached: .*\(last status: (.+)\))$`)
				lines := strings.Split(strings.TrimSpace(runOut(t, "replay", path, "--headless", "--json")), "\n")
				got["replay --headless --json"] = jsonField(t, lines[len(lines)-1], "verdict")
				for _, l := range listed {
					if l.Path == path {
						got["ls"] = field(t, lsText, `(?m)^`+regexp.QuoteMeta(l.ID)+` +(.+?\))  `)
						got["ls --json"] = l.Verdict
						got["ls table"] = table[e.Name()]
					}
				}
				if len(got) != 10 {
					t.Errorf("ls did not list %s", path)
				}
				for surface, v := range got {
					if v != want {
						t.Errorf("%s says %q, want %q", surface, v, want)
					}
				}
			})
		}
	}
}

// fullFold is the verdict of a fresh fold of the whole recording.
func fullFold(t *testing.T, path string) string {
	t.Helper()
	conv, err := files.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	log := reducer.NewLog(conv.Base, conv.EventFiles)
	log.Append(conv.Events...)
	return log.Latest().Verdict(true).String()
}

func runOut(t *testing.T, args ...string) string {
	t.Helper()
	_, out, errs := runCmd(t, nil, args...)
	if out == "" {
		t.Fatalf("%v printed nothing: %s", args, errs)
	}
	return out
}

// field returns the first non-empty group of re's first match in out.
func field(t *testing.T, out, re string) string {
	t.Helper()
	m := regexp.MustCompile(re).FindStringSubmatch(out)
	for _, g := range m[min(len(m), 1):] {
		if g != "" {
			return strings.TrimSpace(g)
		}
	}
	t.Errorf("no %s in:\n%s", re, out)
	return ""
}

func jsonField(t *testing.T, doc, key string) string {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	s, _ := v[key].(string)
	return s
}

// tuiVerdict replays path in the TUI as `ohwatch replay` does, lets it
// load to the end, moves the cursor to the last event and reads the
// header's status.
func tuiVerdict(t *testing.T, path string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := files.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	header := r.Header()
	log := reducer.NewLog(header.Base, header.EventFiles)
	feed := make(chan model.Batch, 4)
	go func() {
		defer close(feed)
		defer r.Close()
		r.Stream(ctx, func(c files.Chunk) { feed <- c.Batch })
	}()
	var m tea.Model = conversation.New(conversation.Options{Title: "t", Source: "replay", Log: log, Feed: feed, NoColor: true,
		Profile: colorprofile.NoTTY}) // plain text to read
	msgs := make(chan tea.Msg, 16)
	teacmds.Run(m.Init(), msgs)
	m, cmd := m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	teacmds.Run(cmd, msgs)
	for !strings.Contains(strings.SplitN(m.View().Content, "\n", 2)[0], "recorded") {
		select {
		case msg := <-msgs:
			m, cmd = m.Update(msg)
			teacmds.Run(cmd, msgs)
		case <-time.After(10 * time.Second):
			t.Fatalf("the recording did not finish loading:\n%s", m.View().Content)
		}
	}
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	// The screen marks a final finish with a check mark beside the words.
	return strings.TrimPrefix(field(t, m.View().Content, `(?m)^status (.+?) · iter`), "✓ ")
}

// TestListServerWordsTheRESTStatus lists a server's conversations: a live
// server's status is its REST answer, worded by the same rule — confirmed
// when the server says finished, never "recorded".
func TestListServerWordsTheRESTStatus(t *testing.T) {
	conv, err := files.Load(twin(t, "simple_echo_hello_world"))
	if err != nil {
		t.Fatal(err)
	}
	url := serveOne(t, "3a6f2ccc343c43749a75342cea50f197", conv)
	var rows []listing
	_, out, errs := runCmd(t, nil, "ls", url, "--json")
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("ls --json: %v\n%s%s", err, out, errs)
	}
	// The playback runs on its own: the status is whatever it has reached.
	r := rows[0]
	want, final := r.Status+" (rest)", false
	if r.Status == model.StatusFinished {
		want, final = "finished (confirmed, rest)", true
	}
	if r.Status == "" || r.Verdict != want || r.StatusFinal != final {
		t.Errorf("status %q: verdict %q (final %v), want %q (final %v)", r.Status, r.Verdict, r.StatusFinal, want, final)
	}
}

// tableVerdicts are the verdicts the rows of `ls ROOT`'s table state, by
// directory name, once every conversation of the root has been read.
func tableVerdicts(t *testing.T, root string) map[string]string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	feed := fleetsource.Watch(ctx, []fleetsource.Source{fleetsource.Local(root, fleetsource.LocalOptions{})}, fleetsource.Options{})
	f := fleet.New()
	entries, _ := os.ReadDir(root)
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ups := <-feed:
			f.Apply(ups)
		case <-deadline:
			t.Fatalf("the table of %s did not read or list every conversation", root)
		}
		out := map[string]string{}
		for _, ref := range f.Refs() {
			if r, _ := f.Row(ref); r.ConnKnown && (r.Conn.Phase == model.PhaseDone || r.Conn.Phase == model.PhaseListed) {
				out[ref.ID] = r.Verdict.String()
			}
		}
		if len(out) == len(entries) {
			return out
		}
	}
}
