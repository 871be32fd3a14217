package cli

import (
	"strings"
	"testing"

	"ohwatch/headless"
	"ohwatch/serve"
)

// As a user meets it: a Docker-runtime agent-server
// (upstream docker_runtime/routers.py, _proxy_socket, commit 0140f789)
// closes the socket with 1008 for a conversation it does not know and 1011
// when its runtime cannot start. `watch` used to reconnect for ever; it now
// ends with exit 4 and the server's reason.
func TestWatchEndsOnAServerThatClosesForGood(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		faults serve.Faults
		want   []string
	}{
		{"1008", serve.Faults{CloseUnknown: 1000}, []string{"close 1008"}},
		// The runtime route says the runtime is gone for good: no retries.
		{"1011 runtime missing", serve.Faults{CloseRuntime: 1000, Docker: true, Runtime: "missing"}, []string{"close 1011", "runtime missing"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, url, _ := servePaced(t, tc.faults)
			code, out, errs := runCmd(t, nil, "watch", url, "--conversation", guardConv, "--headless")
			if code != headless.ExitUnreachable {
				t.Fatalf("exit %d, want 4\n%s\n%s", code, out, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out+errs, w) {
					t.Errorf("output does not say %q:\n%s\n%s", w, out, errs)
				}
			}
			if strings.Contains(out+errs, "retrying") || strings.Contains(out+errs, "reconnecting") {
				t.Errorf("retried a close that is final:\n%s\n%s", out, errs)
			}
		})
	}
}
