package serve

import (
	"net"
	"net/http"
	"sync"
)

// unusedConns tracks the connections that have not sent a request yet.
// http.Server.Shutdown waits up to five seconds for such a connection
// before treating it as idle, and a client's transport keeps one open when
// it dialed for a request it then cancelled (it pools the connection for
// later). Closing them at Close ends serve at once instead of five seconds
// later; a connection with a request in flight still gets Shutdown's grace.
type unusedConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// track is an http.Server.ConnState hook.
func (u *unusedConns) track(c net.Conn, st http.ConnState) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if st == http.StateNew {
		if u.conns == nil {
			u.conns = map[net.Conn]struct{}{}
		}
		u.conns[c] = struct{}{}
		return
	}
	delete(u.conns, c)
}

// closeAll closes every connection that never sent a request.
func (u *unusedConns) closeAll() {
	u.mu.Lock()
	defer u.mu.Unlock()
	for c := range u.conns {
		_ = c.Close()
	}
	clear(u.conns)
}
