package serve

import (
	"encoding/json"
	"net/http"
	"testing"
	"testing/synctest"
	"time"
)

// TestInfoTimesArePlayTime: a served conversation reports created_at and
// updated_at as a real server running it now would (utc_now()): created
// when it started (a staggered one at its own start), updated at its
// latest event as it went out — never the recording's dates, which would
// make one that just started look idle for months.
func TestInfoTimesArePlayTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		first, second := "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
		run := basicRun(t)
		recorded := run[0].Time
		s := New(Options{Speed: 1, Stagger: 10 * time.Second})
		s.Add(first, nil, run)
		s.Add(second, nil, run)
		h := s.Handler()
		defer s.Close()
		synctest.Wait()
		start := time.Now().UTC()
		if recorded.IsZero() || start.Sub(recorded).Abs() < time.Hour {
			t.Fatalf("the recording's time %v must be far from play time %v", recorded, start)
		}
		times := func(id string) (created, updated time.Time) {
			t.Helper()
			var info struct {
				CreatedAt time.Time `json:"created_at"`
				UpdatedAt time.Time `json:"updated_at"`
			}
			if code := serveJSON(t, h, "/api/conversations/"+id, &info); code != http.StatusOK {
				t.Fatalf("GET %s: HTTP %d", id, code)
			}
			return info.CreatedAt, info.UpdatedAt
		}
		if c, u := times(first); !c.Equal(start) || !u.Equal(start) {
			t.Fatalf("at its start: created %v, updated %v; want both %v", c, u, start)
		}

		time.Sleep(10 * time.Second)
		synctest.Wait()
		now := time.Now().UTC()
		c, u := times(first)
		if !c.Equal(start) || !u.After(start) || u.After(now) {
			t.Errorf("10s on: created %v, updated %v; want created %v, updated after it, not after %v", c, u, start, now)
		}
		if c, u := times(second); !c.Equal(now) || !u.Equal(now) {
			t.Errorf("the staggered one at its start: created %v, updated %v; want %v", c, u, now)
		}
		// The search, which a fleet lists, says the same, newest first.
		var p page
		serveJSON(t, h, "/api/conversations/search", &p)
		if len(p.Items) != 2 {
			t.Fatalf("search: %d items", len(p.Items))
		}
		var top struct {
			ID        string    `json:"id"`
			CreatedAt time.Time `json:"created_at"`
		}
		if err := json.Unmarshal(p.Items[0], &top); err != nil || !top.CreatedAt.Equal(now) {
			t.Errorf("search's first item: %+v (%v), want the staggered one created at %v", top, err, now)
		}
	})
}
