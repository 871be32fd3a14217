package session

import (
	"errors"
	"strings"
	"testing"

	"ohwatch/client/agentserver"
	"ohwatch/serve"
	convui "ohwatch/tui/conversation"
)

// TestBrancherOnADockerRuntime: a Docker-runtime agent-server answers fork
// 501 "This operation is unavailable in Docker runtime mode" (upstream
// docker_runtime/routers.py, proxy_conversation, commit 0140f789). The TUI's b gets one sentence saying so, not an HTTP dump, and
// remembers it as it does an older server's refusal.
func TestBrancherOnADockerRuntime(t *testing.T) {
	const id = "0c8a3d0e5f1b4a7e9d3c2b1a0f9e8d7d"
	ctx, srv, c, evs := serveEcho(t, id)
	srv.SetFaults(serve.Faults{Docker: true})
	b := brancher{ctx: ctx, c: c, id: id}
	_, err := b.Fork(ctx, evs[2].ID, "", "")
	if !errors.Is(err, convui.ErrTreeUnsupported) || !errors.Is(err, agentserver.ErrRuntimeUnsupported) {
		t.Fatalf("fork on a Docker runtime: %v", err)
	}
	if got := err.Error(); got != "this server cannot fork a conversation in its Docker runtime" {
		t.Errorf("fork error reads %q", got)
	}
	if strings.Contains(err.Error(), "501") || strings.Contains(err.Error(), "POST") {
		t.Errorf("an HTTP dump: %q", err)
	}
	// Navigate is proxied to the conversation's container upstream: it
	// still works.
	if err := b.Navigate(ctx, evs[1].ID); err != nil {
		t.Errorf("navigate on a Docker runtime: %v", err)
	}
}
