package session

import (
	"context"
	"path/filepath"
	"testing"
)

// TestForkLinksKnowTheirParent: a fork's view in a root knows the
// conversation it was forked from and the event forked at (what D
// compares with), once the listing is read; the source itself has none.
func TestForkLinksKnowTheirParent(t *testing.T) {
	t.Parallel()
	root, ids := forkedRoot(t)
	source := newLocalLinks(filepath.Join(root, ids[0]), ids[0]).(localLinks)
	source.Refresh(context.Background())
	children := source.Children()
	if len(children) == 0 {
		t.Fatal("no forks listed")
	}
	fork := newLocalLinks(filepath.Join(root, children[0].ID), children[0].ID).(localLinks)
	if _, ok := fork.Parent(); ok {
		t.Fatal("a parent before any read")
	}
	fork.Refresh(context.Background())
	p, ok := fork.Parent()
	if !ok || p.ID != ids[0] || p.Event != children[0].Event || p.Title == "" {
		t.Fatalf("parent %+v, %v; want %s forked at %s", p, ok, ids[0], children[0].Event)
	}
	if p, ok := source.Parent(); ok {
		t.Fatalf("the source has a parent: %+v", p)
	}
}
