package fleetsource

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"ohwatch/client/files"
	"ohwatch/fleet"
	"ohwatch/model"
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

// eventsSize is the size of a conversation's event files.
func eventsSize(t *testing.T, dir string) int64 {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "events"))
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		n += info.Size()
	}
	return n
}

// lastConn is the last connection state a conversation was given (the
// zero one for none); callers hold the view's lock.
func lastConnOf(c *convView) model.ConnState {
	if c == nil || len(c.conns) == 0 {
		return model.ConnState{}
	}
	return c.conns[len(c.conns)-1]
}

// wholeRow is the row of a conversation read whole, as the fleet showed
// every local conversation before: the reference a listed one must match.
func wholeRow(t *testing.T, dir string, ref model.ConversationRef) fleet.Row {
	t.Helper()
	f := fleet.New()
	if _, err := files.Stream(context.Background(), dir, func(ch files.Chunk) {
		f.Apply([]model.FleetUpdate{{Ref: ref, Batch: ch.Batch}})
	}); err != nil {
		t.Fatal(err)
	}
	sum := files.Summarise(dir)
	f.Apply([]model.FleetUpdate{{Ref: ref, Meta: localMeta(sum), Batch: model.Batch{Conn: &model.ConnState{Phase: model.PhaseDone}}}})
	r, _ := f.Row(ref)
	return r
}

// listedRow is the row the fleet shows from what the source handed on.
func listedRow(v *fleetView, ref model.ConversationRef) fleet.Row {
	v.mu.Lock()
	defer v.mu.Unlock()
	c := v.convs[ref]
	f := fleet.New()
	f.Apply([]model.FleetUpdate{{Ref: ref, Meta: &c.metas[len(c.metas)-1], Batch: model.Batch{Conn: new(lastConnOf(c))}}})
	r, _ := f.Row(ref)
	return r
}

// TestLocalRootListsALongFinishedConversationFromItsSummary: a root of a
// long finished conversation and a running one. The finished one is shown
// from its summary (PhaseListed, no event handed on) with the status and
// cost a whole read gives, and its event files are not read (the bytes
// the process reads are counted, so a whole read fails it); the running
// one is read and followed.
func TestLocalRootListsALongFinishedConversationFromItsSummary(t *testing.T) {
	root := t.TempDir()
	long, longID := writeConv(t, root, 0, 3000)
	age(t, long)
	running, runningID := writeConv(t, root, 1, 20)
	before, ok := bytesRead(t)
	if !ok {
		t.Skip("the bytes a process reads are not counted here (/proc/self/io)")
	}
	v, _ := watchFleet(t, Local(root, fastLocal))
	v.waitFor(t, "the long one listed, the running one read", func(v *fleetView) bool {
		return lastConnOf(v.conv(longID)).Phase == model.PhaseListed && v.conv(runningID) != nil && len(v.conv(runningID).ids) >= 20
	})
	after, _ := bytesRead(t)
	if read, size := after-before, eventsSize(t, long); read > size/4 {
		t.Fatalf("the source read %d bytes for a root whose long conversation has %d in event files: it read it whole", read, size)
	}
	added := appendEvent(t, running, 20)
	v.waitFor(t, "the running one followed", func(v *fleetView) bool {
		c := v.conv(runningID)
		return len(c.ids) > 0 && c.ids[len(c.ids)-1] == added
	})
	v.mu.Lock()
	if n := len(v.conv(longID).ids); n != 0 {
		t.Errorf("the long finished conversation handed on %d events, want none", n)
	}
	v.mu.Unlock()

	ref := model.ConversationRef{Source: root, Kind: model.SourceLocal, ID: longID}
	got, want := listedRow(v, ref), wholeRow(t, long, ref)
	if got.Verdict != want.Verdict || got.Cost != want.Cost || got.CostKnown != want.CostKnown || !got.CostKnown || got.Title != want.Title || !got.LastActivity.Equal(want.LastActivity) {
		t.Fatalf("listed row %+v\nwhole read %+v", got, want)
	}
}

// TestLocalListedConversationIsReadOnceItGrows: a long finished
// conversation without base_state.json (the CLI's) is listed from its
// tail's verdict; once an event file is added it is read whole and
// followed, every event handed on once.
func TestLocalListedConversationIsReadOnceItGrows(t *testing.T) {
	root := t.TempDir()
	dir, id := writeCLIConv(t, root)
	v, _ := watchFleet(t, Local(root, fastLocal))
	v.waitFor(t, "listed from its tail", func(v *fleetView) bool {
		c := v.conv(id)
		return lastConnOf(c).Phase == model.PhaseListed && c.metas[len(c.metas)-1].Status == model.StatusFinished
	})
	ref := model.ConversationRef{Source: root, Kind: model.SourceLocal, ID: id}
	if got, want := listedRow(v, ref), wholeRow(t, dir, ref); got.Verdict.String() != want.Verdict.String() || got.Verdict.Status != model.StatusFinished {
		t.Fatalf("listed from its tail as %q; a whole read states %q", got.Verdict, want.Verdict)
	}
	added := appendEvent(t, dir, 1000)
	v.waitFor(t, "read whole and followed", func(v *fleetView) bool {
		c := v.conv(id)
		return len(c.ids) == 1001 && c.ids[1000] == added && lastConnOf(c).Phase != model.PhaseListed
	})
	noDuplicates(t, v)
}

// TestLocalFollowOutlastsQuietWhileItReadsThePile: a listed conversation
// that grows is read whole by its follower, however much longer than
// Quiet that first scan takes (here Quiet is 1 ms and the scan reads 1001
// files). The follow used to count Quiet from its start, end before the
// first scan came in, and rest with nothing read, never to be read again.
func TestLocalFollowOutlastsQuietWhileItReadsThePile(t *testing.T) {
	root := t.TempDir()
	dir, id := writeCLIConv(t, root)
	opts := fastLocal
	opts.Quiet = time.Millisecond
	v, _ := watchFleet(t, Local(root, opts))
	v.waitFor(t, "listed from its tail", func(v *fleetView) bool {
		c := v.conv(id)
		return lastConnOf(c).Phase == model.PhaseListed
	})
	added := appendEvent(t, dir, 1000)
	v.waitFor(t, "read whole", func(v *fleetView) bool {
		c := v.conv(id)
		return len(c.ids) == 1001 && c.ids[1000] == added
	})
	noDuplicates(t, v)
}

// writeCLIConv writes a finished 1000-event conversation without
// base_state.json (as the CLI leaves one), last written an hour ago.
func writeCLIConv(t *testing.T, root string) (dir, id string) {
	t.Helper()
	dir, id = writeConv(t, root, 0, 1000)
	if err := os.Remove(filepath.Join(dir, "base_state.json")); err != nil {
		t.Fatal(err)
	}
	age(t, dir)
	return dir, id
}
