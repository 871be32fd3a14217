package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/client/files"
	"ohwatch/serve"
)

// compareDoc is what the tests read of `compare --json`.
type compareDoc struct {
	A, B struct {
		Cost  string `json:"cost"`
		Steps int    `json:"steps"`
	}
	SharedUntil     *string         `json:"shared_until_event_id"`
	FirstDivergence json.RawMessage `json:"first_divergence"`
	Counts          map[string]int  `json:"counts"`
}

func compareJSON(t *testing.T, env map[string]string, args ...string) compareDoc {
	t.Helper()
	code, out, errs := runCmd(t, env, append([]string{"compare", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("compare %v: exit %d\n%s", args, code, errs)
	}
	var doc compareDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return doc
}

// forkRoot writes a conversations root with one fork and returns the
// parent's and the fork's directories and the fork point.
func forkRoot(t *testing.T) (parent, fork, point string) {
	t.Helper()
	root := t.TempDir()
	if code, _, errs := runCmd(t, nil, "gen", root, "--events", "400", "--seed", "9", "--forks", "1"); code != 0 {
		t.Fatalf("gen: %s", errs)
	}
	sums, err := files.List(root)
	if err != nil || len(sums) != 2 {
		t.Fatalf("root: %v, %d conversations", err, len(sums))
	}
	for _, s := range sums {
		if s.ParentID != "" {
			fork, point = s.Path, s.ForkedFromEvent
		} else {
			parent = s.Path
		}
	}
	raw, err := os.ReadFile(filepath.Join(fork, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		ForkedFromEventID string `json:"forked_from_event_id"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil || meta.ForkedFromEventID != point || point == "" {
		t.Fatalf("meta.json %s: fork point %q vs %q", raw, meta.ForkedFromEventID, point)
	}
	return parent, fork, point
}

// `compare FORK` compares a generated fork with its parent: they share
// everything up to the fork's forked_from_event_id, and part there.
func TestCompareForkWithItsParent(t *testing.T) {
	parent, fork, point := forkRoot(t)
	doc := compareJSON(t, nil, fork)
	if doc.SharedUntil == nil || *doc.SharedUntil != point {
		t.Fatalf("shared_until_event_id %v, want the fork point %q", doc.SharedUntil, point)
	}
	if string(doc.FirstDivergence) == "null" {
		t.Fatal("a fork that went on differently has no first_divergence")
	}
	// The same with both named.
	both := compareJSON(t, nil, parent, fork)
	if both.SharedUntil == nil || *both.SharedUntil != point || both.Counts["same"] != doc.Counts["same"] {
		t.Fatalf("compare PARENT FORK: shared until %v, counts %v vs %v", both.SharedUntil, both.Counts, doc.Counts)
	}
}

// A recording compared with itself has no divergence.
func TestCompareRecordingWithItself(t *testing.T) {
	path := twin(t, "creating_agent_plan")
	doc := compareJSON(t, nil, path, path)
	if string(doc.FirstDivergence) != "null" || doc.Counts["changed"]+doc.Counts["only_a"]+doc.Counts["only_b"] != 0 || doc.Counts["same"] == 0 {
		t.Fatalf("first_divergence %s, counts %v", doc.FirstDivergence, doc.Counts)
	}
}

// --md names both sides' cost and steps; piped without a flag, the text
// report does.
func TestCompareMarkdownAndText(t *testing.T) {
	parent, fork, _ := forkRoot(t)
	doc := compareJSON(t, nil, parent, fork)
	code, md, errs := runCmd(t, nil, "compare", "--md", parent, fork)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := []string{
		"| cost | " + doc.A.Cost + " | " + doc.B.Cost + " |",
		"| steps | " + itoa(doc.A.Steps) + " | " + itoa(doc.B.Steps) + " |",
	}
	for _, w := range want {
		if !strings.Contains(md, w) {
			t.Errorf("--md lacks %q:\n%s", w, md)
		}
	}
	code, text, errs := runCmd(t, nil, "compare", parent, fork)
	if code != 0 || !strings.Contains(text, "cost ") || !strings.Contains(text, "steps ") || !strings.HasPrefix(text, "A: ") {
		t.Fatalf("text report (exit %d, %s):\n%s", code, errs, text)
	}
}

// An agent-server conversation compares with a recording: the same
// recording played by a server is the same run, shared event by event.
func TestCompareAgentServerConversation(t *testing.T) {
	const key = "sk-compare-secret-0123456789"
	path := twin(t, "creating_agent_plan")
	conv, err := files.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.New(serve.Options{Key: key, Speed: 0, FinishConfirmDelay: 1})
	id := "2a7f2ccc343c43749a75342cea50f197"
	srv.Add(id, conv.Base, conv.Events)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, err := srv.Start(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	awaitFinished(t, ctx, url, key, id)
	env := map[string]string{"SESSION_API_KEY": key}
	for _, spec := range []string{url + "/api/conversations/" + id, url + "#" + id} {
		doc := compareJSON(t, env, path, spec)
		if string(doc.FirstDivergence) != "null" || doc.Counts["same"] == 0 || doc.SharedUntil == nil {
			t.Fatalf("%s: first_divergence %s, counts %v, shared until %v", spec, doc.FirstDivergence, doc.Counts, doc.SharedUntil)
		}
	}
	code, out, errs := runCmd(t, env, "compare", "--md", path, url+"/api/conversations/"+id)
	if code != 0 || strings.Contains(out+errs, key) {
		t.Fatalf("exit %d; the key shows: %v", code, strings.Contains(out+errs, key))
	}
}

// awaitFinished waits until the server has played the conversation to its
// end (its status says finished), within a generous bound.
func awaitFinished(t *testing.T, ctx context.Context, url, key, id string) {
	t.Helper()
	c, err := agentserver.New(url, key)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second) // a failure bound
	for {
		info, err := c.Conversation(ctx, id)
		if err == nil && info.ExecutionStatus == "finished" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never finished playing %s: %v", id, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Bad usage says what is wrong and exits 2.
func TestCompareUsage(t *testing.T) {
	path := twin(t, "creating_agent_plan")
	cases := [][]string{
		{"compare"},
		{"compare", path, path, path},
		{"compare", "--json", "--md", path, path},
		{"compare", "http://127.0.0.1:1", path},
		{"compare", "/no/such/run", path},
		{"compare", path}, // not a fork
	}
	for _, args := range cases {
		code, _, errs := runCmd(t, nil, args...)
		if code != exitUsage || errs == "" || strings.Count(strings.TrimSpace(errs), "\n") > 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// `compare URL#FORK` of a fork made on an agent-server finds its parent
// on the same server and shares everything up to the fork point.
func TestCompareAgentServerFork(t *testing.T) {
	path := twin(t, "creating_agent_plan")
	conv, err := files.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.New(serve.Options{Speed: 0, FinishConfirmDelay: 1})
	id := "3b7f2ccc343c43749a75342cea50f197"
	srv.Add(id, conv.Base, conv.Events)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, err := srv.Start(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	awaitFinished(t, ctx, url, "", id)
	// The fork point: an action in the middle of the conversation.
	var point string
	for _, ev := range conv.Events[len(conv.Events)/2:] {
		if ev.Kind == "ActionEvent" {
			point = ev.ID
			break
		}
	}
	c, err := agentserver.New(url, "")
	if err != nil {
		t.Fatal(err)
	}
	fork, err := c.Fork(ctx, id, point, "a fork", true)
	if err != nil {
		t.Fatal(err)
	}
	doc := compareJSON(t, nil, url+"#"+fork)
	if doc.SharedUntil == nil || *doc.SharedUntil != point {
		t.Fatalf("shared_until_event_id %v, want the fork point %q", doc.SharedUntil, point)
	}
	if code, _, errs := runCmd(t, nil, "compare", url+"#"+id); code != exitUsage || !strings.Contains(errs, "forked from no other") {
		t.Fatalf("compare of a conversation that is no fork: exit %d, %s", code, errs)
	}
}
