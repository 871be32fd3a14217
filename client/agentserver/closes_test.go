package agentserver

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

// A Docker-runtime agent-server (upstream
// openhands-agent-server/openhands/agent_server/docker_runtime/routers.py,
// _proxy_socket, at commit 0140f789, PR #3403) accepts the socket, then
// closes it with a bare 1008 when the conversation is unknown (its 404) and
// 1011 when the runtime cannot start (502, and 409 for an archived one).
// Before, the watch reconnected to both for ever.

// retries counts the reconnecting states a watch reported.
func retries(col *collector) int {
	n := 0
	for _, cs := range col.conns {
		if cs.Phase == model.PhaseReconnecting {
			n++
		}
	}
	return n
}

// TestE2EClose1008EndsTheWatch: 1008 is final at once, with the code named.
func TestE2EClose1008EndsTheWatch(t *testing.T) {
	evs := testevents.Generated(t, 10, 3)
	id := fmt.Sprintf("%032x", 0x1008)
	_, c := startServe(t, serve.Options{Inject: serve.Faults{CloseUnknown: 100}}, id, nil, evs)
	col := collect(c.Watch(context.Background(), id, fastWatch()))
	col.endsFinal(t, CodeClosed, "close 1008")
	if n := retries(col); n != 0 {
		t.Errorf("%d reconnects after a 1008, want none: %+v", n, col.conns)
	}
}

// TestE2EClose1011IsRetriedABoundedNumberOfTimes: a runtime may be starting,
// so 1011 is retried, but the watch ends after runtimeCloseGiveUp closes in
// a row with the server's words.
func TestE2EClose1011IsRetriedABoundedNumberOfTimes(t *testing.T) {
	evs := testevents.Generated(t, 10, 4)
	id := fmt.Sprintf("%032x", 0x1011)
	_, c := startServe(t, serve.Options{Inject: serve.Faults{CloseRuntime: 100}}, id, nil, evs)
	col := collect(c.Watch(context.Background(), id, fastWatch()))
	last := col.endsFinal(t, CodeClosed, "close 1011")
	if n := retries(col); n != runtimeCloseGiveUp-1 {
		t.Errorf("%d reconnects, want %d: %+v", n, runtimeCloseGiveUp-1, col.conns)
	}
	if strings.Contains(last.Reason, "the server says") {
		t.Errorf("reason %q quotes a runtime route the server does not have", last.Reason)
	}
	// Two closes, then the socket is taken: the watch goes on as usual.
	_, c = startServe(t, serve.Options{Inject: serve.Faults{CloseRuntime: 2}}, id, nil, evs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	col = collect(c.Watch(ctx, id, fastWatch()))
	col.waitFor(t, "the whole recording after two 1011 closes", func(c *collector) bool { return len(recordedOf(c.events, evs)) == len(evs) })
}

// TestE2EClose1011AsksTheRuntimeRoute: where the server has the runtime
// route (PR #4966, SDK 1.48; ConversationRuntimeInfo in models.py), a 1011
// close asks it; a runtime missing that cannot be resumed ends the watch at
// the first close, saying so, and one still starting is waited for.
func TestE2EClose1011AsksTheRuntimeRoute(t *testing.T) {
	evs := testevents.Generated(t, 10, 5)
	id := fmt.Sprintf("%032x", 0x1011a)
	_, c := startServe(t, serve.Options{Inject: serve.Faults{CloseRuntime: 100, Docker: true, Runtime: "missing"}}, id, nil, evs)
	col := collect(c.Watch(context.Background(), id, fastWatch()))
	col.endsFinal(t, CodeClosed, "the server says: runtime missing")
	if n := retries(col); n != 0 {
		t.Errorf("%d reconnects to a runtime that cannot come back, want none", n)
	}

	_, c = startServe(t, serve.Options{Inject: serve.Faults{CloseRuntime: 100, Docker: true, Runtime: "starting"}}, id, nil, evs)
	col = collect(c.Watch(context.Background(), id, fastWatch()))
	col.endsFinal(t, CodeClosed, "the server says: runtime starting")
	if n := retries(col); n != runtimeCloseGiveUp-1 {
		t.Errorf("%d reconnects to a starting runtime, want %d", n, runtimeCloseGiveUp-1)
	}
}

// TestRuntimeWords: a missing runtime is said to be missing, never an error
// or an end.
func TestRuntimeWords(t *testing.T) {
	for _, tc := range []struct {
		r    RuntimeInfo
		want string
	}{
		{RuntimeInfo{Status: RuntimeAvailable, CanResume: true}, "runtime available"},
		{RuntimeInfo{Status: RuntimeMissing, CanResume: true}, "runtime missing (can resume)"},
		{RuntimeInfo{Status: RuntimeMissing}, "runtime missing"},
		{RuntimeInfo{Status: RuntimeOwnershipLost}, "runtime ownership lost"},
		{RuntimeInfo{Status: RuntimeError, ErrorCode: "start_failed", ErrorMessage: "no image"}, "runtime error: start_failed: no image"},
	} {
		if got := tc.r.Words(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.r, got, tc.want)
		}
	}
}

// TestRuntimeCloseGiveUpIsWithinTwoMinutes: with the default backoff, at
// its longest (no jitter taken off), the 1011 closes end the watch within
// two minutes.
func TestRuntimeCloseGiveUpIsWithinTwoMinutes(t *testing.T) {
	o := WatchOptions{}.withDefaults()
	b := backoff{base: o.BaseBackoff, max: o.MaxBackoff, jitter: func(d time.Duration) time.Duration { return d }}
	var total time.Duration
	for n := 1; n < runtimeCloseGiveUp; n++ {
		total += b.delay(n)
	}
	if total > 2*time.Minute-o.PingTimeout {
		t.Errorf("%d closes take %s of backoff, past two minutes less a handshake", runtimeCloseGiveUp, total)
	}
}
