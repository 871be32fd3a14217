package session

import (
	"context"
	"testing"

	"ohwatch/client/agentserver"
	"ohwatch/demo"
	"ohwatch/internal/fixtures"
	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

// serveDemo serves the bundled demo conversation on loopback with opts
// (and a session key), and returns it, its address and a client for it.
// The server stops with the test.
func serveDemo(t *testing.T, opts serve.Options) (*model.BaseState, []model.Event, string, *agentserver.Client) {
	t.Helper()
	base, events := demoConversation(t)
	opts.Key = "demo-e2e-key"
	srv := serve.New(opts)
	srv.Add(base.ID, base, events)
	url, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	c, err := agentserver.New(url, opts.Key)
	if err != nil {
		t.Fatal(err)
	}
	return base, events, url, c
}

// trajectory is the path of the project's recording of the shape of the
// upstream CLI trajectory name (see internal/fixtures), which every clone
// has.
func trajectory(t *testing.T, name string) string {
	t.Helper()
	own, ok := testevents.Twins[name]
	if !ok {
		t.Fatalf("no own recording of the shape of %s", name)
	}
	return fixtures.Path(t, own)
}

// demoConversation decodes the conversation bundled in the binary.
func demoConversation(t *testing.T) (*model.BaseState, []model.Event) {
	t.Helper()
	rawBase, rawEvents := demo.Conversation()
	base, err := model.DecodeBaseState(rawBase)
	if err != nil {
		t.Fatal(err)
	}
	events := make([]model.Event, 0, len(rawEvents))
	for _, raw := range rawEvents {
		ev, err := model.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	return base, events
}

// startTestServer starts srv on loopback until the test ends.
func startTestServer(t *testing.T, srv *serve.Server) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	url, err := srv.Start(ctx, "")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close(); cancel() })
	return url
}
