package fleetsource

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ohwatch/gen"
	"ohwatch/model"
)

// writeConv writes a generated conversation of n events under root and
// returns its directory and id (the directory's name).
func writeConv(t testing.TB, root string, i, n int) (dir, id string) {
	t.Helper()
	dir = filepath.Join(root, fmt.Sprintf("conv-%d", i))
	if err := gen.WriteDir(dir, gen.Options{Events: n, Seed: int64(i)}); err != nil {
		t.Fatal(err)
	}
	return dir, filepath.Base(dir)
}

// age makes a conversation look last written an hour ago.
func age(t testing.TB, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "events"), old, old); err != nil {
		t.Fatal(err)
	}
}

// appendEvent adds a user message as event file index of dir.
func appendEvent(t testing.TB, dir string, index int) string {
	t.Helper()
	id := fmt.Sprintf("00000000-0000-4000-8000-%012d", 900000+index)
	raw := fmt.Appendf(nil, `{"kind":"MessageEvent","id":%q,"timestamp":"2026-03-14T10:00:00.000000","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"more %d"}]}}`, id, index)
	if err := os.WriteFile(filepath.Join(dir, "events", fmt.Sprintf("event-%05d-%s.json", index, id)), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	return id
}

var fastLocal = LocalOptions{Poll: 10 * time.Millisecond, Follow: 5 * time.Millisecond, Quiet: 100 * time.Millisecond}

// TestLocalRootListsReadsFollowsAndNotices watches a root of three
// conversations: the first slice lists all three; every event of each
// arrives once, read with its progress, and the read ends done; a conversation that grows after it was read hands on only
// what is new, also after it went quiet and grew again; a directory that
// appears in the root is listed and read.
func TestLocalRootListsReadsFollowsAndNotices(t *testing.T) {
	root := t.TempDir()
	sizes := []int{30, 5, 120}
	dirs, ids := make([]string, len(sizes)), make([]string, len(sizes))
	for i, n := range sizes {
		dirs[i], ids[i] = writeConv(t, root, i, n)
		age(t, dirs[i]) // written an hour ago: read once, not followed
	}
	src := Local(root, fastLocal)
	v, _ := watchFleet(t, src)
	v.waitFor(t, "every event", func(v *fleetView) bool {
		for i, n := range sizes {
			if c := v.conv(ids[i]); c == nil || len(c.ids) < n {
				return false
			}
		}
		return true
	})
	v.mu.Lock()
	listed := 0
	for _, u := range v.first {
		if u.Meta != nil {
			listed++
		}
	}
	if listed != len(sizes) {
		t.Errorf("the first slice lists %d conversations, want all %d", listed, len(sizes))
	}
	if !v.conv(ids[2]).progress {
		t.Error("a conversation read once came without its progress")
	}
	if m := v.conv(ids[0]).metas; len(m) == 0 || m[0].Title == "" {
		t.Errorf("listing without a title: %+v", m)
	}
	v.mu.Unlock()
	if got := src.Path(ids[2]); got != dirs[2] {
		t.Errorf("Path = %q, want %q", got, dirs[2])
	}

	v.waitFor(t, "every read to be done", func(v *fleetView) bool {
		for _, id := range ids {
			c := v.conv(id)
			if len(c.conns) == 0 || c.conns[len(c.conns)-1].Phase != model.PhaseDone {
				return false
			}
		}
		return true
	})
	grown := appendEvent(t, dirs[1], sizes[1])
	v.waitFor(t, "the event added after the read", func(v *fleetView) bool {
		ids := v.conv(ids[1]).ids
		return len(ids) == sizes[1]+1 && ids[len(ids)-1] == grown
	})
	v.waitFor(t, "live while it grows, done once quiet", func(v *fleetView) bool {
		cs := v.conv(ids[1]).conns
		return len(cs) >= 3 && cs[len(cs)-2].Phase == model.PhaseLive && cs[len(cs)-1].Phase == model.PhaseDone
	})
	again := appendEvent(t, dirs[1], sizes[1]+1)
	v.waitFor(t, "the event added once it rested", func(v *fleetView) bool {
		ids := v.conv(ids[1]).ids
		return len(ids) == sizes[1]+2 && ids[len(ids)-1] == again
	})

	_, fresh := writeConv(t, root, 7, 12)
	v.waitFor(t, "the new conversation", func(v *fleetView) bool {
		c := v.conv(fresh)
		return c != nil && len(c.metas) > 0 && len(c.ids) == 12
	})
	noDuplicates(t, v)
}

// TestLocalRootThatIsNotThereYet reports the source as reconnecting, not
// a crash, says the root does not exist (as ls does), and picks the root
// up once it exists.
func TestLocalRootThatIsNotThereYet(t *testing.T) {
	root := filepath.Join(t.TempDir(), "later")
	v, _ := watchFleet(t, Local(root, fastLocal))
	v.waitFor(t, "the source's failure", func(v *fleetView) bool {
		c := v.convs[model.ConversationRef{Source: root, Kind: model.SourceLocal}]
		return c != nil && len(c.conns) > 0 && c.conns[0].Phase == model.PhaseReconnecting
	})
	v.mu.Lock()
	reason := v.convs[model.ConversationRef{Source: root, Kind: model.SourceLocal}].conns[0].Reason
	v.mu.Unlock()
	if reason != RootMissing {
		t.Errorf("a missing root is reported as %q, want %q", reason, RootMissing)
	}
	_, id := writeConv(t, root, 1, 4)
	v.waitFor(t, "the conversation", func(v *fleetView) bool {
		c := v.conv(id)
		return c != nil && len(c.ids) == 4
	})
}

// TestLocalRootFollowsAtMostMaxFollowed: six conversations being written
// at once under a limit of two followers: two are followed, the others
// read once, and every event of each arrives.
func TestLocalRootFollowsAtMostMaxFollowed(t *testing.T) {
	root := t.TempDir()
	var ids []string
	for i := range 6 {
		_, id := writeConv(t, root, i, 8) // just written: would be followed
		ids = append(ids, id)
	}
	opts := fastLocal
	opts.Quiet = time.Hour // followers never rest in this test
	opts.MaxFollowed = 2
	src := Local(root, opts)
	v, _ := watchFleet(t, src)
	v.waitFor(t, "every conversation read", func(v *fleetView) bool {
		for _, id := range ids {
			if c := v.conv(id); c == nil || len(c.ids) < 8 {
				return false
			}
		}
		return true
	})
	growing := 0
	for _, id := range ids {
		if src.Growing(id) {
			growing++
		}
	}
	if growing != 2 {
		t.Errorf("%d conversations followed, want the limit, 2", growing)
	}
}
