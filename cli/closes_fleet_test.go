package cli

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"ohwatch/internal/testevents"
	"ohwatch/serve"
)

// TestFleetRowSaysWhyTheServerClosedIt: in a fleet, a conversation whose
// socket the server closes with 1008 (upstream docker_runtime/routers.py,
// commit 0140f789: unknown to a Docker-runtime server) ends with its row
// saying so, and the rest of the fleet is watched to its end.
func TestFleetRowSaysWhyTheServerClosedIt(t *testing.T) {
	t.Parallel()
	srv := serve.New(serve.Options{Speed: 20, Inject: serve.Faults{CloseUnknown: 1}})
	var ids []string
	for i := range 2 {
		id := fmt.Sprintf("%032x", 0xf1008+i)
		srv.Add(id, nil, testevents.Generated(t, 60, int64(7+i)))
		ids = append(ids, id)
	}
	url, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	code, out, errs := runCmd(t, nil, "fleet", url, "--headless", "--until", "all", "--interval", "50ms")
	closed, finished := map[string]bool{}, map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		for _, id := range ids {
			if strings.Contains(line, id) && strings.Contains(line, "close 1008") {
				closed[id] = true
			}
			if strings.Contains(line, id) && strings.Contains(line, "-> finished") {
				finished[id] = true
			}
		}
	}
	// One socket was closed: that row says why; the other conversation
	// was watched to its end.
	if len(closed) != 1 || len(finished) == 0 {
		t.Fatalf("exit %d: want one row closed with 1008 and the fleet watched on:\n%s\n%s", code, out, errs)
	}
	for id := range closed {
		for _, other := range ids {
			if other != id && !finished[other] {
				t.Errorf("%s was not watched to its end after %s was closed:\n%s", other, id, out)
			}
		}
	}
}
