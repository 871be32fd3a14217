package compare

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"ohwatch/client/files"
	"ohwatch/reducer"
)

// loadRun reads the recording at path into a run named name.
func loadRun(tb testing.TB, name, path string) *Run {
	tb.Helper()
	conv, err := files.Load(path)
	if err != nil {
		tb.Fatalf("load %s: %v", path, err)
	}
	log := reducer.NewLog(conv.Base, conv.EventFiles)
	log.Append(conv.Events...)
	return NewRun(Side{Name: name, Title: conv.Title, Source: path, ConversationID: conv.ID, Log: log, Ended: true})
}

// forkMeta is what a fork's meta.json says of where it came from.
type forkMeta struct {
	ForkedFromConversationID string `json:"forked_from_conversation_id"`
	ForkedFromEventID        string `json:"forked_from_event_id"`
}

// readForkMeta reads a fork directory's meta.json.
func readForkMeta(tb testing.TB, dir string) forkMeta {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var m forkMeta
	if err := json.Unmarshal(raw, &m); err != nil {
		tb.Fatal(err)
	}
	return m
}
