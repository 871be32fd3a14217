package agentserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

// kernelConn stands in for a socket's kernel side: what is written waits
// in a buffer, and a read takes all that has come (up to its buffer),
// blocking only while nothing has. It counts the reads.
type kernelConn struct {
	net.Conn // nil: only Read, Write and Close are used
	mu       sync.Mutex
	pending  []byte
	ready    chan struct{} // closed and replaced when pending grows
	closed   bool
	reads    int
}

func newKernelConn() *kernelConn { return &kernelConn{ready: make(chan struct{})} }

func (k *kernelConn) Write(p []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.pending = append(k.pending, p...)
	close(k.ready)
	k.ready = make(chan struct{})
	return len(p), nil
}

func (k *kernelConn) Read(p []byte) (int, error) {
	for {
		k.mu.Lock()
		if k.closed {
			k.mu.Unlock()
			return 0, net.ErrClosed
		}
		if len(k.pending) > 0 {
			n := copy(p, k.pending)
			k.pending = k.pending[n:]
			k.reads++
			k.mu.Unlock()
			return n, nil
		}
		ready := k.ready
		k.mu.Unlock()
		<-ready
	}
}

func (k *kernelConn) Close() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.closed = true
	close(k.ready)
	k.ready = make(chan struct{})
	return nil
}

func (k *kernelConn) readCount() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.reads
}

// gathering is a gatherConn over k whose handshake is over.
func gathering(k *kernelConn, every time.Duration) *gatherConn {
	g := newGatherConn(k, every)
	g.on.Store(true)
	return g
}

// TestGatherConnReadsStraightThroughUntilStarted: the TLS and HTTP
// handshakes read as they would without gathering, each round trip at
// once; gathering starts when the dial says the handshake is over.
func TestGatherConnReadsStraightThroughUntilStarted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		k := newKernelConn()
		gd := &gatherDial{every: time.Hour}
		g := newGatherConn(k, gd.every)
		gd.made(g)
		buf := make([]byte, 64)
		start := time.Now()
		for _, msg := range []string{"server hello", "finished", "HTTP/1.1 101"} {
			k.Write([]byte(msg))
			if n, _ := g.Read(buf); string(buf[:n]) != msg {
				t.Fatalf("read %q, want %q", buf[:n], msg)
			}
		}
		if took := time.Since(start); took != 0 {
			t.Errorf("the handshake's reads took %v, want them at once", took)
		}
		gd.start()
		k.Write([]byte("frame 1"))
		g.Read(buf) // the first gathered read: at once, after a quiet spell
		k.Write([]byte("frame 2"))
		start = time.Now()
		if n, _ := g.Read(buf); string(buf[:n]) != "frame 2" || time.Since(start) != time.Hour {
			t.Errorf("read %q after %v; once started, the next read waits the interval", buf[:n], time.Since(start))
		}
	})
}

func TestGatherConnReadsOncePerInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		k := newKernelConn()
		g := gathering(k, 100*time.Millisecond)
		var want bytes.Buffer
		for i := range 100 {
			fmt.Fprintf(&want, "frame %03d;", i)
		}
		go func() {
			// 100 frames, one every 10 ms, as a conversation at 100 events/s.
			for i, f := range strings.SplitAfter(want.String(), ";") {
				if i > 0 {
					time.Sleep(10 * time.Millisecond)
				}
				k.Write([]byte(f))
			}
		}()
		got := make([]byte, want.Len())
		start := time.Now()
		if _, err := io.ReadFull(g, got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("read %q, want %q", got, want.Bytes())
		}
		// A read every 100 ms over the second the frames took: 11 at most
		// (the first at once); read as they came it would be 100.
		if took, reads := time.Since(start), k.readCount(); reads > 11 {
			t.Errorf("%d reads of the kernel in %v for 100 frames, want at most 11", reads, took)
		}
	})
}

// TestGatherConnTakesALargeFrameAtOnce: a 4 MB frame (a big observation)
// fills many buffers; each full read is followed by the next without a
// wait, so it comes in at once instead of a buffer every interval.
func TestGatherConnTakesALargeFrameAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		k := newKernelConn()
		g := gathering(k, 100*time.Millisecond)
		frame := bytes.Repeat([]byte("0123456789abcdef"), 4<<20/16)
		k.Write(frame)
		got := make([]byte, len(frame))
		start := time.Now()
		if _, err := io.ReadFull(g, got); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took != 0 || !bytes.Equal(got, frame) {
			t.Errorf("a 4 MB frame took %v (%d reads), want it at once", took, k.readCount())
		}
	})
}

func TestGatherConnHandsAQuietStreamsFirstFrameAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		k := newKernelConn()
		g := gathering(k, time.Second)
		buf := make([]byte, 64)
		k.Write([]byte("first"))
		if n, _ := g.Read(buf); string(buf[:n]) != "first" {
			t.Fatalf("read %q", buf[:n])
		}
		time.Sleep(5 * time.Second) // quiet for longer than the interval
		k.Write([]byte("after a while"))
		start := time.Now()
		n, _ := g.Read(buf)
		if string(buf[:n]) != "after a while" || time.Since(start) != 0 {
			t.Errorf("read %q after %v, want the frame at once", buf[:n], time.Since(start))
		}
	})
}

func TestGatherConnCloseEndsAGatheringRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		k := newKernelConn()
		g := gathering(k, time.Hour)
		k.Write([]byte("x"))
		buf := make([]byte, 8)
		g.Read(buf)
		k.Write([]byte("y")) // waits for the hour to pass
		errc := make(chan error, 1)
		go func() {
			_, err := g.Read(buf)
			errc <- err
		}()
		synctest.Wait()
		start := time.Now()
		g.Close()
		if err := <-errc; !errors.Is(err, net.ErrClosed) || time.Since(start) != 0 {
			t.Errorf("read ended with %v after %v, want net.ErrClosed at once", err, time.Since(start))
		}
	})
}

// countingDialer dials TCP and counts the reads of each connection that
// opens a socket, legacy or session (its first write is the handshake naming the
// socket's path).
type countingDialer struct {
	mu    sync.Mutex
	conns []*countedConn
}

type countedConn struct {
	net.Conn
	socket atomic.Bool
	wrote  atomic.Bool
	reads  atomic.Int64
}

func (c *countedConn) Write(p []byte) (int, error) {
	if !c.wrote.Swap(true) && bytes.Contains(p, []byte("/sockets/")) {
		c.socket.Store(true)
	}
	return c.Conn.Write(p)
}

func (c *countedConn) Read(p []byte) (int, error) {
	c.reads.Add(1)
	return c.Conn.Read(p)
}

func (d *countingDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	c := &countedConn{Conn: conn}
	d.mu.Lock()
	d.conns = append(d.conns, c)
	d.mu.Unlock()
	return c, nil
}

// socketReads is the reads of the socket connections dialled so far.
func (d *countingDialer) socketReads() (conns int, reads int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.conns {
		if c.socket.Load() {
			conns++
			reads += c.reads.Load()
		}
	}
	return conns, reads
}

// TestWatchGathersSocketReads watches a conversation serve plays live at
// 100 events a second through a client whose connections count their
// reads: with GatherReads at 100 ms the socket is read at most once per
// 100 ms, where each frame took a read before.
func TestWatchGathersSocketReads(t *testing.T) {
	const n = 150
	evs := testevents.Generated(t, n, 7)
	t0 := time.Unix(1_700_000_000, 0).UTC()
	for i := range evs {
		evs[i].Time = t0.Add(time.Duration(i) * 10 * time.Millisecond)
	}
	id := fmt.Sprintf("%032x", 0x6a7e)
	s := serve.New(serve.Options{Key: e2eKey, Speed: 1, StartPaused: true})
	s.Add(id, nil, evs)
	url, err := s.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	d := &countingDialer{}
	c, err := New(url, e2eKey, WithHTTPClient(&http.Client{Transport: &http.Transport{DialContext: d.dial}}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := c.Watch(ctx, id, WatchOptions{PingInterval: -1, CheckInterval: -1, GatherReads: 100 * time.Millisecond})
	for bt := range ch {
		if bt.Conn != nil && bt.Conn.Phase == model.PhaseLive {
			break
		}
	}
	_, before := d.socketReads()
	start := time.Now()
	s.Run(id)
	got := 0
	for bt := range ch {
		for _, ev := range bt.Events {
			if model.Persisted(ev) {
				got++
			}
		}
		if got >= n {
			break
		}
	}
	took := time.Since(start)
	conns, after := d.socketReads()
	if conns != 1 {
		t.Fatalf("%d socket connections, want 1", conns)
	}
	// At most one read per 100 ms of the stream, and the one it began in,
	// besides the reads right after one that filled the buffer (a burst
	// the server sent at once while the machine was busy).
	size := 0
	for _, ev := range evs {
		size += len(ev.Raw)
	}
	if reads, most := after-before, int64(took/(100*time.Millisecond))+2+int64(size/gatherBufferSize); reads > most {
		t.Errorf("%d socket reads for %d frames in %v, want at most %d", reads, n, took, most)
	}
}
