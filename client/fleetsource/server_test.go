package fleetsource

import (
	"context"
	"fmt"
	"testing"
	"time"

	"ohwatch/client/agentserver"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

// fastWatch keeps the tests off real-second waits.
var fastWatch = agentserver.WatchOptions{
	BaseBackoff: time.Millisecond, MaxBackoff: 20 * time.Millisecond,
	PingInterval: -1, CheckInterval: -1, Coalesce: time.Millisecond,
}

var fastServer = ServerOptions{Interval: 20 * time.Millisecond, MaxBackoff: 100 * time.Millisecond, Watch: fastWatch}

// serveFleet serves n generated conversations of size events each under
// key, at once (speed 0), and returns the server, its URL and the
// recordings by id.
func serveFleet(t testing.TB, key string, n, size int, seed int64) (*serve.Server, string, map[string][]model.Event) {
	t.Helper()
	srv := serve.New(serve.Options{Key: key})
	recs := map[string][]model.Event{}
	for i := range n {
		id := fmt.Sprintf("%08x%024x", seed, i+1)
		recs[id] = testevents.Generated(t, size, seed*1000+int64(i))
		srv.Add(id, nil, recs[id])
	}
	url, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv, url, recs
}

func client(t testing.TB, url, key string) *agentserver.Client {
	t.Helper()
	c, err := agentserver.New(url, key)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// hasAll reports whether a conversation received every recorded event;
// callers hold the view's lock.
func hasAll(c *convView, rec []model.Event) bool {
	if c == nil {
		return false
	}
	got := make(map[string]bool, len(c.ids))
	for _, id := range c.ids {
		got[id] = true
	}
	for _, ev := range rec {
		if !got[ev.ID] {
			return false
		}
	}
	return true
}

// TestServerSourceEveryPageListedNewOnesStreamed watches an agent-server
// hosting 130 finished conversations (two pages of its search): the first
// page comes in the first slice, each shown from its listing (PhaseListed)
// with no stream; one added while watched appears at the next listing and,
// having just changed, streams whole, then rests on its listing again.
func TestServerSourceEveryPageListedNewOnesStreamed(t *testing.T) {
	srv, url, recs := serveFleet(t, "k-one", 130, 12, 1)
	// Serve's players emit everything at once, but in goroutines of their
	// own: one still idle at the first listing and finished at the next has
	// changed, and is rightly streamed. The test is about settled ones.
	played, stop := context.WithTimeout(t.Context(), time.Minute)
	defer stop()
	for id := range recs {
		if err := srv.WaitStatus(played, id, model.StatusFinished); err != nil {
			t.Fatal(err)
		}
	}
	v, _ := watchFleet(t, Server(client(t, url, "k-one"), fastServer))
	v.waitFor(t, "every conversation listed", func(v *fleetView) bool {
		for id := range recs {
			if c := v.conv(id); c == nil || len(c.metas) == 0 {
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
	for id := range recs {
		c := v.conv(id)
		if len(c.ids) > 0 || len(c.conns) == 0 || c.conns[0].Phase != model.PhaseListed {
			t.Errorf("%s: a finished conversation got %d events, conns %+v; want its listing alone", id, len(c.ids), c.conns)
		}
	}
	v.mu.Unlock()
	if listed < 100 {
		t.Errorf("the first slice lists %d conversations, want at least the first page (100)", listed)
	}
	const late = "0000000000000000000000000000abcd"
	rec := testevents.Generated(t, 9, 77)
	srv.Add(late, nil, rec)
	v.waitFor(t, "the conversation added later, streamed", func(v *fleetView) bool { return hasAll(v.conv(late), rec) })
	v.waitFor(t, "the conversation added later, at rest", func(v *fleetView) bool {
		c := v.conv(late)
		return c.conns[len(c.conns)-1].Phase == model.PhaseListed
	})
	noDuplicates(t, v)
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.slices > 200 {
		t.Errorf("%d slices for a fleet that came at once: updates are not gathered per frame", v.slices)
	}
}

// TestServerSourceKeyPerServer watches two servers, each with its own key,
// and a third given the wrong one: the first two stream every
// conversation; the third reports the source itself as rejected (auth),
// without a conversation.
func TestServerSourceKeyPerServer(t *testing.T) {
	_, urlA, recsA := serveFleet(t, "key-a", 3, 6, 2)
	_, urlB, recsB := serveFleet(t, "key-b", 2, 6, 3)
	_, urlC, _ := serveFleet(t, "key-c", 2, 6, 4)
	v, _ := watchFleet(t,
		Server(client(t, urlA, "key-a"), fastServer),
		Server(client(t, urlB, "key-b"), fastServer),
		Server(client(t, urlC, "key-a"), fastServer))
	v.waitFor(t, "both servers' conversations and the rejection", func(v *fleetView) bool {
		for _, recs := range []map[string][]model.Event{recsA, recsB} {
			for id, rec := range recs {
				if !hasAll(v.conv(id), rec) {
					return false
				}
			}
		}
		c := v.convs[model.ConversationRef{Source: urlC, Kind: model.SourceServer}]
		return c != nil && len(c.conns) > 0 && c.conns[0].Code == agentserver.CodeAuth
	})
	v.mu.Lock()
	defer v.mu.Unlock()
	if n := v.conversations(); n != 5 {
		t.Errorf("%d conversations, want the 5 of the servers whose key is right", n)
	}
	for ref := range v.convs {
		if ref.Source != urlA && ref.Source != urlB && ref.Source != urlC {
			t.Errorf("a ref labelled %q", ref.Source)
		}
	}
}

// TestFleetStreamsGatherTheirReads: a fleet's streams read their sockets
// every DefaultGatherReads unless the watch options say otherwise, both
// for a server's conversations and for Cloud's.
func TestFleetStreamsGatherTheirReads(t *testing.T) {
	c, err := agentserver.New("http://127.0.0.1:1", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ set, want time.Duration }{
		{0, DefaultGatherReads},
		{-1, -1},
		{time.Second, time.Second},
	} {
		src := Server(c, ServerOptions{Watch: agentserver.WatchOptions{GatherReads: tc.set}}).(*server)
		if got := src.opts.Watch.GatherReads; got != tc.want {
			t.Errorf("server source with GatherReads %v gathers %v, want %v", tc.set, got, tc.want)
		}
		if got := fleetWatch(agentserver.WatchOptions{GatherReads: tc.set}).GatherReads; got != tc.want {
			t.Errorf("a fleet watch (Cloud's) with GatherReads %v gathers %v, want %v", tc.set, got, tc.want)
		}
	}
}
