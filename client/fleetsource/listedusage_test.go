package fleetsource

import (
	"context"
	"testing"

	"ohwatch/model"
	"ohwatch/reducer"
)

// TestServerListingHandsOnUsageSummed: a server's listed conversation is
// handed on with its usage summed, as the server's own stats of it sum,
// and without the stats: a listed row keeps what the table shows, not a
// map and a struct per LLM usage.
func TestServerListingHandsOnUsageSummed(t *testing.T) {
	srv, url, recs := serveFleet(t, "k-sum", 3, 12, 5)
	for id := range recs {
		if err := srv.WaitStatus(t.Context(), id, model.StatusFinished); err != nil {
			t.Fatal(err)
		}
	}
	c := client(t, url, "k-sum")
	v, _ := watchFleet(t, Server(c, fastServer))
	v.waitFor(t, "every conversation listed", func(v *fleetView) bool {
		for id := range recs {
			if c := v.conv(id); c == nil || len(c.metas) == 0 {
				return false
			}
		}
		return true
	})
	for id := range recs {
		info, err := c.Conversation(context.Background(), id)
		if err != nil || info.Base == nil || info.Base.Stats == nil {
			t.Fatalf("%s: REST %+v, %v", id, info, err)
		}
		want := reducer.ListedUsageOf(info.Base.Stats)
		if want == nil {
			t.Fatalf("%s: the server's stats report no usage: nothing to test", id)
		}
		v.mu.Lock()
		m := v.conv(id).metas[0]
		v.mu.Unlock()
		if m.Stats != nil || m.Usage == nil || *m.Usage != *want {
			t.Errorf("%s: listed with stats %v, usage %+v; want no stats and usage %+v", id, m.Stats != nil, m.Usage, *want)
		}
	}
}
