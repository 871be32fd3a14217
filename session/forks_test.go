package session

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"ohwatch/gen"
)

// TestReplayLinksOpenTheForks: the replay of a conversation of a root
// knows the forks made from it (their meta.json), each at its event, and
// opens one as a recording with links of its own.
func TestReplayLinksOpenTheForks(t *testing.T) {
	t.Parallel()
	root, ids := forkedRoot(t)
	ctx := context.Background()
	l, ok := newLocalLinks(filepath.Join(root, ids[0]), ids[0]).(localLinks)
	if !ok {
		t.Fatal("no links for a conversation of a root")
	}
	if kids := l.Children(); len(kids) != 0 {
		t.Fatalf("children before any read: %+v", kids)
	}
	l.Refresh(ctx)
	children := l.Children()
	if len(children) != 2 {
		t.Fatalf("children %+v", children)
	}
	_, src, err := LoadLog(ctx, filepath.Join(root, ids[0]))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range children {
		if _, ok := src.IndexOf(c.Event); !ok || c.Title == "" {
			t.Fatalf("child %+v: not forked at an event of the source", c)
		}
	}
	opts, err := l.Open(ctx, children[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for b := range opts.Feed {
		n += len(b.Events)
	}
	if n == 0 || opts.Links == nil || !strings.Contains(opts.Source, children[0].ID) {
		t.Fatalf("the fork opened with %d events, links %v, source %q", n, opts.Links, opts.Source)
	}
	if _, err := l.Open(ctx, "ffffffff111142228333944455556666"); err == nil {
		t.Fatal("opened a conversation the root does not hold")
	}
	if newLocalLinks(filepath.Join(root, "nothing"), "x") != nil {
		t.Fatal("links for a directory that holds no conversation")
	}
}

// forkedRoot generates a conversations root: a conversation navigated back
// twice and two forks of it. It returns the root and the conversations'
// ids, the source's first.
func forkedRoot(t *testing.T) (string, []string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "root")
	dirs, err := gen.WriteRoot(root, gen.Options{Events: 1200, Seed: 9, Branches: 2, Forks: 2})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(dirs))
	for i, d := range dirs {
		ids[i] = filepath.Base(d)
	}
	return root, ids
}
