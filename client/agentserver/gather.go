package agentserver

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// gatherBufferSize is how much one gathered read takes in: a second of a
// conversation at 100 events a second is about 140 KB, so a read every
// 50 ms fits, and a replay's burst takes few.
const gatherBufferSize = 64 << 10

// gatherKey carries, in a dial's context, the socket's gatherDial.
type gatherKey struct{}

// gatherDial is one socket dial that asks for gathered reads: how long
// frames may gather, and the connection the dial made, whose gathering
// starts once the handshake is over.
type gatherDial struct {
	every time.Duration
	mu    sync.Mutex
	conn  *gatherConn
}

// withGather asks the socket dialled with ctx to gather reads every d once
// its handshake is over (start); the returned dial is nil when d is not
// positive.
func withGather(ctx context.Context, d time.Duration) (context.Context, *gatherDial) {
	if d <= 0 {
		return ctx, nil
	}
	gd := &gatherDial{every: d}
	return context.WithValue(ctx, gatherKey{}, gd), gd
}

// made records the connection the dial made.
func (gd *gatherDial) made(g *gatherConn) {
	gd.mu.Lock()
	defer gd.mu.Unlock()
	gd.conn = g
}

// start turns gathering on: the TLS and HTTP handshakes went frame by
// frame, each of their round trips not held up to an interval.
func (gd *gatherDial) start() {
	if gd == nil {
		return
	}
	gd.mu.Lock()
	defer gd.mu.Unlock()
	if gd.conn != nil {
		gd.conn.on.Store(true)
	}
}

// socketHTTP returns the client sockets are dialled with: hc's settings
// on a transport of its own whose connections gather their reads when the
// dial asks (withGather). A client whose transport is not an
// *http.Transport is used as it is: its reads are not gathered.
func socketHTTP(hc *http.Client) *http.Client {
	var base *http.Transport
	switch t := hc.Transport.(type) {
	case nil:
		base, _ = http.DefaultTransport.(*http.Transport)
	case *http.Transport:
		base = t
	}
	if base == nil || base.DialTLSContext != nil {
		return hc
	}
	t := base.Clone()
	dial := t.DialContext
	if dial == nil {
		dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		if gd, ok := ctx.Value(gatherKey{}).(*gatherDial); ok {
			g := newGatherConn(conn, gd.every)
			gd.made(g)
			return g, nil
		}
		return conn, nil
	}
	// A connection upgraded to a socket never goes back to the pool; one
	// whose handshake failed must not be reused by a dial asking other
	// gathering.
	t.DisableKeepAlives = true
	sc := *hc
	sc.Transport = t
	return &sc
}

// gatherConn is a socket's connection read at most once every `every`:
// the frames that arrive meanwhile wait in the kernel and come in with one
// read. A fleet streaming a hundred conversations at 100 events a second
// each otherwise paid a read system call, a wake-up and a pass of the
// scheduler per frame — a third of its CPU — for news no table shows
// faster than a few times a second. A frame waits at most `every` longer;
// a read that fills the buffer is followed by the next at once, so a large
// frame or a burst comes in at the socket's own speed.
type gatherConn struct {
	net.Conn
	every time.Duration
	// on is set once the handshakes are over (gatherDial.start); until
	// then every read goes straight through.
	on atomic.Bool

	buf  []byte // what the last read took in; buf[next:] is not handed out yet
	next int
	last time.Time // when the last read returned
	// full is set when the last read filled buf: the kernel likely holds
	// more (a large frame, a burst), so the next read does not wait.
	// Without it a 4 MB frame took 64 waits — six seconds — to come in.
	full   bool
	timer  *time.Timer
	closed chan struct{}
	once   sync.Once
}

// newGatherConn wraps conn; its gathering starts with start.
func newGatherConn(conn net.Conn, every time.Duration) *gatherConn {
	return &gatherConn{Conn: conn, every: every, buf: make([]byte, 0, gatherBufferSize), closed: make(chan struct{})}
}

// Read hands out what the last read took in, and reads again only once
// every has passed since it returned. A read that blocks (a quiet
// conversation) wakes at its first byte as before. Reads come from one
// goroutine at a time, as net.Conn's reader does.
func (g *gatherConn) Read(p []byte) (int, error) {
	if !g.on.Load() && g.next == len(g.buf) {
		return g.Conn.Read(p)
	}
	if g.next == len(g.buf) {
		if err := g.wait(); err != nil {
			return 0, err
		}
		n, err := g.Conn.Read(g.buf[:cap(g.buf)])
		g.last, g.full = time.Now(), n == cap(g.buf)
		g.buf, g.next = g.buf[:n], 0
		if n == 0 {
			return 0, err
		}
	}
	n := copy(p, g.buf[g.next:])
	g.next += n
	return n, nil
}

// wait sleeps until every has passed since the last read, or the
// connection is closed; not at all after a read that filled the buffer.
func (g *gatherConn) wait() error {
	rest := g.every - time.Since(g.last)
	if rest <= 0 || g.full {
		return nil
	}
	if g.timer == nil {
		g.timer = time.NewTimer(rest)
	} else {
		g.timer.Reset(rest)
	}
	select {
	case <-g.timer.C:
		return nil
	case <-g.closed:
		g.timer.Stop()
		return net.ErrClosed
	}
}

// Close ends a read waiting to gather and closes the connection.
func (g *gatherConn) Close() error {
	g.once.Do(func() { close(g.closed) })
	return g.Conn.Close()
}
