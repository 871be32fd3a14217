package serve_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"

	"ohwatch/model"
	"ohwatch/serve"
)

// Example serves a recorded conversation on a free port of 127.0.0.1 and
// asks it, over REST, how many events it has emitted.
func Example() {
	dir := filepath.Join("..", "testdata", "situations", "events")
	names, _ := filepath.Glob(filepath.Join(dir, "event-*.json"))
	sort.Strings(names)
	var events []model.Event
	for _, name := range names {
		raw, err := os.ReadFile(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		ev, err := model.Decode(raw)
		if err != nil {
			fmt.Println(err)
			return
		}
		events = append(events, ev)
	}

	// Speed 0 emits the whole recording at once; StartPaused holds it
	// until POST /run, so the count below is deterministic.
	s := serve.New(serve.Options{Key: "secret", StartPaused: true})
	defer s.Close()
	s.Add("0c8a3d0e-5f1b-4a7e-9d3c-2b1a0f9e8d7c", nil, events)
	base, err := s.Start(context.Background(), "")
	if err != nil {
		fmt.Println(err)
		return
	}
	req, _ := http.NewRequest(http.MethodGet, base+"/api/conversations/0c8a3d0e5f1b4a7e9d3c2b1a0f9e8d7c/events/count", nil)
	req.Header.Set("X-Session-API-Key", "secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(body))
	// Output: 200 0
}
