package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/internal/redact"
	"ohwatch/model"
)

// TestRedactedFeedCutsTheKeysOut: an event that echoes a key comes out of
// the feed decoded again from bytes without it (its summary too), an
// event that does not is handed on as it came, warnings lose the key, and
// the batch the reader sent is left as it was.
func TestRedactedFeedCutsTheKeysOut(t *testing.T) {
	const key = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c6b5a4"
	decode := func(s string) model.Event {
		ev, err := model.Decode([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return ev
	}
	echo := decode(`{"id":"5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e61","kind":"MessageEvent","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"deploy with ` + key + ` please"}]}}`)
	plain := decode(`{"id":"5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e62","kind":"MessageEvent","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"hello"}]}}`)
	sent := model.Batch{Events: []model.Event{echo, plain}, Warnings: []string{"events/x.json: bad " + key}}
	feed := make(chan model.Batch, 1)
	feed <- sent
	close(feed)
	secrets := new(redact.Secrets)
	secrets.Add(key)
	var got []model.Batch
	for b := range redactedFeed(context.Background(), secrets, feed) {
		got = append(got, b)
	}
	if len(got) != 1 || len(got[0].Events) != 2 {
		t.Fatalf("got %+v", got)
	}
	out := got[0]
	if strings.Contains(string(out.Events[0].Raw), key) || strings.Contains(out.Events[0].Summary, key) || !strings.Contains(out.Events[0].Summary, "deploy with") {
		t.Errorf("the echoing event came out as %q (summary %q)", out.Events[0].Raw, out.Events[0].Summary)
	}
	if &out.Events[1].Raw[0] != &plain.Raw[0] {
		t.Error("an event without the key was decoded again")
	}
	if strings.Contains(out.Warnings[0], key) {
		t.Errorf("warning %q", out.Warnings[0])
	}
	if !strings.Contains(string(sent.Events[0].Raw), key) || !strings.Contains(sent.Warnings[0], key) {
		t.Error("the reader's batch was changed")
	}
	none := make(chan model.Batch)
	if redactedFeed(context.Background(), new(redact.Secrets), none) != (<-chan model.Batch)(none) {
		t.Error("with no secret the feed is not handed on as it is")
	}
}

// TestRedactedLocalUpdatesLeaveServersAlone: a local root's update loses
// the key from its listed title and its events; a server's update, whose
// client redacted it already, is handed on as it came.
func TestRedactedLocalUpdatesLeaveServersAlone(t *testing.T) {
	const key = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c6b5a4"
	ev, err := model.Decode([]byte(`{"id":"5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e61","kind":"MessageEvent","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"deploy with ` + key + `"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	meta := &model.ConversationMeta{Title: "deploy with " + key}
	in := make(chan []model.FleetUpdate, 1)
	in <- []model.FleetUpdate{
		{Ref: model.ConversationRef{Source: "/root", Kind: model.SourceLocal, ID: "a"}, Meta: meta, Batch: model.Batch{Events: []model.Event{ev}}},
		{Ref: model.ConversationRef{Source: "http://h", Kind: model.SourceServer, ID: "b"}, Meta: meta, Batch: model.Batch{Events: []model.Event{ev}}},
	}
	close(in)
	secrets := new(redact.Secrets)
	secrets.Add(key)
	ups := <-redactedLocalUpdates(context.Background(), secrets, in)
	local, server := ups[0], ups[1]
	if strings.Contains(local.Meta.Title, key) || strings.Contains(string(local.Batch.Events[0].Raw), key) || strings.Contains(local.Batch.Events[0].Summary, key) {
		t.Errorf("the local update still holds the key: %q, %q", local.Meta.Title, local.Batch.Events[0].Summary)
	}
	if server.Meta != meta || &server.Batch.Events[0].Raw[0] != &ev.Raw[0] {
		t.Error("a server's update was changed")
	}
	if !strings.Contains(meta.Title, key) {
		t.Error("the listed meta the source sent was changed in place")
	}
}

// TestCompareSideFromFilesHoldsNoKey: a run compare reads from a file
// comes to the compare screen with the keys cut out of its title and its
// events.
func TestCompareSideFromFilesHoldsNoKey(t *testing.T) {
	const key = "sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c6b5a4"
	path := filepath.Join(t.TempDir(), "run.jsonl")
	line := `{"id":"5d6e0c1a-2b3c-4d5e-8f90-1a2b3c4d5e61","timestamp":"2026-03-14T09:50:51","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"deploy with ` + key + `"}]},"kind":"MessageEvent"}`
	if err := os.WriteFile(path, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	secrets := new(redact.Secrets)
	secrets.Add(key)
	side, err := openSide(context.Background(), CompareRun{Path: path}, CompareKeys{Secrets: secrets})
	if err != nil {
		t.Fatal(err)
	}
	seen := side.Title
	for b := range side.Feed {
		for _, ev := range b.Events {
			seen += string(ev.Raw) + ev.Summary
		}
	}
	if strings.Contains(seen, key) || !strings.Contains(seen, "deploy with") {
		t.Errorf("the side shows %q", seen)
	}
}
