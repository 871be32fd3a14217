package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"ohwatch/model"
)

// serveJSON answers a GET on h without a network (inside a synctest
// bubble) and decodes the answer into v; it returns the status.
func serveJSON(t *testing.T, h http.Handler, path string, v any) int {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	if v != nil && rec.Code == http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), v); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
	}
	return rec.Code
}

// listed is the ids /api/conversations/search lists, sorted.
func listed(t *testing.T, h http.Handler) []string {
	t.Helper()
	var p page
	if code := serveJSON(t, h, "/api/conversations/search", &p); code != http.StatusOK {
		t.Fatalf("search: HTTP %d", code)
	}
	var out []string
	for _, raw := range p.Items {
		var info struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(raw, &info); err != nil {
			t.Fatal(err)
		}
		out = append(out, model.NormalizeConversationID(info.ID))
	}
	slices.Sort(out)
	return out
}

// TestStaggerStartsInOrder starts three conversations ten seconds apart:
// each is listed, found and emitting exactly from its start, not an
// instant before, in the order they were added.
func TestStaggerStartsInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ids := []string{
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
			"cccccccccccccccccccccccccccccccc", // added second: map or id order must not matter
			"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
		}
		s := New(Options{Speed: 1, Stagger: 10 * time.Second})
		for _, id := range ids {
			s.Add(id, nil, basicRun(t))
		}
		h := s.Handler()
		defer s.Close()
		for i := range ids {
			if i > 0 { // the first starts with the server
				time.Sleep(time.Duration(i)*10*time.Second - time.Since(s.started) - time.Nanosecond)
				synctest.Wait()
				want := slices.Sorted(slices.Values(ids[:i]))
				if got := listed(t, h); !slices.Equal(got, want) {
					t.Fatalf("just before %ds: listed %v, want %v", i*10, got, want)
				}
				if code := serveJSON(t, h, "/api/conversations/"+ids[i], nil); code != http.StatusNotFound {
					t.Fatalf("%s before its start: HTTP %d, want 404", ids[i], code)
				}
				time.Sleep(time.Nanosecond)
			}
			synctest.Wait()
			want := slices.Sorted(slices.Values(ids[:i+1]))
			if got := listed(t, h); !slices.Equal(got, want) {
				t.Fatalf("at %ds: listed %v, want %v", i*10, got, want)
			}
			if n := len(s.conversation(ids[i]).events()); n != 1 {
				t.Fatalf("%s at its start has emitted %d events, want its first", ids[i], n)
			}
		}
	})
}

// TestLoopRestartsAsANewConversation plays a recording to its end with
// Loop: after the pause it starts again under a new id, with fresh event
// ids and references, timestamps after the ended run, and the whole
// recording a second time, while the ended conversation stays listed.
func TestLoopRestartsAsANewConversation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		recorded := basicRun(t)
		s := New(Options{Speed: 1, Loop: true})
		s.Add(convID, nil, recorded)
		h := s.Handler()
		defer s.Close()
		first := model.NormalizeConversationID(convID)
		second := loopID(first, 1)

		runTime := recorded[len(recorded)-1].Time.Sub(recorded[0].Time) // 5s at Speed 1
		time.Sleep(runTime)
		synctest.Wait()
		if !s.conversation(first).finished() {
			t.Fatal("the first run has not ended")
		}
		if got := listed(t, h); !slices.Equal(got, []string{first}) {
			t.Fatalf("before the restart: listed %v", got)
		}
		time.Sleep(s.loopPause())
		synctest.Wait()
		if got, want := listed(t, h), slices.Sorted(slices.Values([]string{first, second})); !slices.Equal(got, want) {
			t.Fatalf("after the pause: listed %v, want %v", got, want)
		}
		var info struct {
			Status string `json:"execution_status"`
		}
		serveJSON(t, h, "/api/conversations/"+first, &info)
		if info.Status != model.StatusFinished {
			t.Errorf("the ended run reads %q, want finished", info.Status)
		}

		time.Sleep(runTime)
		synctest.Wait()
		again := s.conversation(second).events()
		if !s.conversation(second).finished() {
			t.Fatal("the second run has not ended")
		}
		assertRelabelled(t, recorded, again, second, runTime+time.Second)
	})
}

// assertRelabelled checks that run is the whole recording again as the
// conversation conv: every recorded event once, in order, under a fresh id
// derived from conv, moved by shift, with references to recorded ids
// following them, and no recorded id anywhere.
func assertRelabelled(t *testing.T, recorded, run []model.Event, conv string, shift time.Duration) {
	t.Helper()
	fresh := map[string]string{}
	for _, ev := range recorded {
		fresh[ev.ID] = derivedUUID(conv + "/" + ev.ID)
	}
	var got []model.Event
	for _, ev := range run {
		if _, old := fresh[ev.ID]; old {
			t.Fatalf("the new run reuses the recorded id %s", ev.ID)
		}
		for _, n := range fresh {
			if ev.ID == n {
				got = append(got, ev)
			}
		}
	}
	if len(got) != len(recorded) {
		t.Fatalf("the new run emitted %d of the %d recorded events", len(got), len(recorded))
	}
	for i, ev := range recorded {
		g := got[i]
		if g.ID != fresh[ev.ID] || g.Kind != ev.Kind || g.Source != ev.Source || g.Summary != ev.Summary {
			t.Errorf("event %d: %s %s %q, want %s %s %q", i, g.ID, g.Kind, g.Summary, fresh[ev.ID], ev.Kind, ev.Summary)
		}
		if !g.Time.Equal(ev.Time.Add(shift)) {
			t.Errorf("event %d at %v, want %v", i, g.Time, ev.Time.Add(shift))
		}
		if o, ok := ev.Body.(*model.Observation); ok {
			if n := g.Body.(*model.Observation); n.ActionID != fresh[o.ActionID] {
				t.Errorf("observation %d answers %s, want the new action %s", i, n.ActionID, fresh[o.ActionID])
			}
		}
	}
}

// TestLoopRunOverItsOwnSocket follows a restarted conversation over its
// own WebSocket on a real listener: from the subscription it receives the
// whole recording again, relabelled, up to finished, and REST lists it
// beside the ended run.
func TestLoopRunOverItsOwnSocket(t *testing.T) {
	recorded := basicRun(t)
	s, base := start(t, Options{Key: testKey, Speed: 100, Loop: true}, map[string][]model.Event{convID: recorded})
	second := loopID(convID, 1)
	waitFor(t, "the restart", func() bool { return s.lookup(second) != nil })
	ws := dial(t, base, second, "resend_mode=all&session_api_key="+testKey, nil)
	frames := ws.until(func(ev model.Event) bool { return statusOf(ev) == model.StatusFinished })
	runTime := recorded[len(recorded)-1].Time.Sub(recorded[0].Time)
	assertRelabelled(t, recorded, frames, second, runTime+time.Second)
	var n int
	get(t, base+"/api/conversations/count", testKey, &n)
	if n < 2 {
		t.Fatalf("%d conversations listed, want the ended run and its restart", n)
	}
	if code := get(t, base+"/api/conversations/"+convID, testKey, nil); code != http.StatusOK {
		t.Fatalf("the ended run: HTTP %d", code)
	}
}

// TestLoopIgnoredWithoutPace: at Speed 0 a run ends as it starts, so Loop
// would restart forever; the recording plays once.
func TestLoopIgnoredWithoutPace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := New(Options{Loop: true})
		s.Add(convID, nil, basicRun(t))
		h := s.Handler()
		defer s.Close()
		time.Sleep(time.Hour)
		synctest.Wait()
		if got := listed(t, h); len(got) != 1 {
			t.Fatalf("listed %v, want the one recording", got)
		}
	})
}

// TestSearchOrderHoldsWhilePlayersStart pages through the search while 60
// conversations' players start: every page read then, and every page read
// after they all ran, lists each conversation once with the same
// created_at. A conversation listed from the beginning must keep its
// created_at (it orders the search) or a client paging meanwhile misses
// some and sees others twice.
func TestSearchOrderHoldsWhilePlayersStart(t *testing.T) {
	s := New(Options{})
	const n = 60
	for i := range n {
		s.Add(fmt.Sprintf("%032x", i+1), nil, basicRun(t))
	}
	h := s.Handler()
	defer s.Close()
	search := func() map[string]string {
		t.Helper()
		created := map[string]string{}
		url := "/api/conversations/search?limit=7"
		for pages := 0; ; pages++ {
			var p page
			if code := serveJSON(t, h, url, &p); code != http.StatusOK || pages > n {
				t.Fatalf("search page %d: HTTP %d", pages, code)
			}
			for _, raw := range p.Items {
				var info struct {
					ID        string `json:"id"`
					CreatedAt string `json:"created_at"`
				}
				if err := json.Unmarshal(raw, &info); err != nil {
					t.Fatal(err)
				}
				if _, dup := created[info.ID]; dup {
					t.Errorf("%s listed twice", info.ID)
				}
				created[info.ID] = info.CreatedAt
			}
			if p.NextPageID == nil {
				return created
			}
			url = "/api/conversations/search?limit=7&page_id=" + *p.NextPageID
		}
	}
	first := search()
	deadline := time.Now().Add(10 * time.Second)
	for _, c := range s.order {
		for len(c.events()) < len(c.recorded) && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
	}
	later := search()
	if len(first) != n || len(later) != n {
		t.Fatalf("listed %d conversations while the players started and %d after, want %d", len(first), len(later), n)
	}
	for id, at := range first {
		if later[id] != at {
			t.Errorf("%s: created_at %s while starting, %s after", id, at, later[id])
		}
	}
}
