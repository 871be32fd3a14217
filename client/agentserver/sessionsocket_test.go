package agentserver

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"ohwatch/internal/testevents"
	"ohwatch/model"
	"ohwatch/serve"
)

// The session socket, /sockets/session/{id} (upstream
// openhands-agent-server session_socket.py, commit 328cbcc0, and
// session_protocol.py, commit 1d341d24; PR #4807, SDK 1.45).

// TestSessionFrameDecoding reads each frame type as upstream's
// model_dump_json(exclude_none=True) writes it, and the same envelopes laid
// out otherwise (the protocol promises no field order and lets fields be
// added), which the general reader takes.
func TestSessionFrameDecoding(t *testing.T) {
	c, _ := New("http://127.0.0.1:1", "")
	ev := `{"kind":"PauseEvent","id":"p1","timestamp":"2026-09-01T10:00:00","source":"user"}`
	for _, tc := range []struct {
		frame, typ string
		seq        int // -1: none
		event      bool
	}{
		{`{"type":"sync","from_seq":-1,"through_seq":12}`, "sync", -1, false},
		{`{"type":"sync","through_seq":12}`, "sync", -1, false},
		{`{"type":"durable","seq":7,"event":` + ev + `}`, "durable", 7, true},
		{`{"seq":7,"type":"durable","event":` + ev + `}`, "durable", 7, true},
		{`{"type":"durable","seq":7,"event":` + ev + `,"stream":"main"}`, "durable", 7, true},
		{`{"type":"transient","event":` + ev + `}`, "transient", -1, true},
		{`{"type":"error","code":"ValidationError","detail":"bad"}`, "error", -1, false},
		{`{"type":"item_started","item_id":"x","attempt":1}`, "item_started", -1, false},
		{`{"type":"something_new","x":1}`, "something_new", -1, false},
	} {
		f := c.sessionFrame([]byte(tc.frame))
		if f.bad != 0 || f.env == nil || f.env.Type != tc.typ {
			t.Errorf("%s: %+v", tc.frame, f)
			continue
		}
		if (tc.seq >= 0) != (f.env.Seq != nil) || (f.env.Seq != nil && *f.env.Seq != tc.seq) {
			t.Errorf("%s: seq %v, want %d", tc.frame, f.env.Seq, tc.seq)
		}
		if tc.event && (f.ev.ID != "p1" || f.ev.Kind != model.KindPause) {
			t.Errorf("%s: event %+v", tc.frame, f.ev)
		}
	}
	for _, bad := range []string{`[1]`, `{"type":"durable","event":` + ev + `}`, `{"type":"durable","seq":-2,"event":` + ev + `}`} {
		if f := c.sessionFrame([]byte(bad)); f.bad == 0 {
			t.Errorf("%s accepted: %+v", bad, f)
		}
	}
}

// scriptServer is a session socket that sends, per connection, the frames
// the test scripts for it, and records each connection's after_seq.
type scriptServer struct {
	srv    *httptest.Server
	mu     sync.Mutex
	afters []string
	script func(n int, after string) []string
}

func newScriptServer(t *testing.T, script func(n int, after string) []string) *scriptServer {
	s := &scriptServer{script: script}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/sockets/session/") {
			http.NotFound(w, r)
			return
		}
		s.mu.Lock()
		n := len(s.afters)
		after := r.URL.Query().Get("after_seq")
		s.afters = append(s.afters, after)
		s.mu.Unlock()
		conn, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer conn.CloseNow()
		ctx := r.Context()
		if _, _, err := conn.Read(ctx); err != nil { // the auth frame
			return
		}
		for _, f := range s.script(n, after) {
			if strings.HasPrefix(f, "close ") {
				var code int
				fmt.Sscan(strings.TrimPrefix(f, "close "), &code)
				conn.Close(websocket.StatusCode(code), "slow_consumer")
				return
			}
			if err := conn.Write(ctx, websocket.MessageText, []byte(f)); err != nil {
				return
			}
		}
		_, _, _ = conn.Read(ctx) // hold the connection open
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *scriptServer) afterSeqs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.afters)
}

// durable is a durable frame carrying a PauseEvent named by its seq.
func durable(seq int) string {
	return fmt.Sprintf(`{"type":"durable","seq":%d,"event":{"kind":"PauseEvent","id":"e%d","timestamp":"2026-09-01T10:00:%02d","source":"user"}}`, seq, seq, seq)
}

// TestSessionOutOfOrderDurablesAreDeliveredInSeqOrder: as the kit's README
// reports of upstream's socket, live durable frames can come 13, 15, 14.
// The watch delivers them in the log's order and, when the connection
// drops with a gap open, resumes after the highest contiguous seq it
// holds, not the highest it saw: nothing lost, nothing twice.
func TestSessionOutOfOrderDurablesAreDeliveredInSeqOrder(t *testing.T) {
	s := newScriptServer(t, func(n int, after string) []string {
		switch n {
		case 0:
			return []string{`{"type":"sync","from_seq":-1,"through_seq":1}`, durable(0), durable(1),
				durable(3), durable(2), durable(5), "close 1013"} // 4 never came on this connection
		default:
			return []string{`{"type":"sync","from_seq":3,"through_seq":6}`, durable(4), durable(5), durable(6)}
		}
	})
	c, _ := New(s.srv.URL, "k")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	col := collect(c.Watch(ctx, "0123456789abcdef0123456789abcdef", fastWatch()))
	col.waitCount(t, "seven events", 7)
	if got, want := col.ids(), []string{"e0", "e1", "e2", "e3", "e4", "e5", "e6"}; !slices.Equal(got, want) {
		t.Errorf("delivered %v, want %v", got, want)
	}
	if got := s.afterSeqs(); !slices.Equal(got, []string{"-1", "3"}) {
		t.Errorf("after_seq per connection %v, want [-1 3] (resume after the contiguous 3, not the 5 seen)", got)
	}
}

// TestSessionGapIsResumedFromTheServer: a gap that does not fill within
// OrphanWait ends the connection, which resumes from the gap.
func TestSessionGapIsResumedFromTheServer(t *testing.T) {
	s := newScriptServer(t, func(n int, after string) []string {
		if n == 0 {
			return []string{`{"type":"sync","from_seq":-1,"through_seq":0}`, durable(0), durable(2)}
		}
		return []string{`{"type":"sync","from_seq":0,"through_seq":2}`, durable(1), durable(2)}
	})
	c, _ := New(s.srv.URL, "k")
	opts := fastWatch()
	opts.OrphanWait = 20 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	col := collect(c.Watch(ctx, "0123456789abcdef0123456789abcdef", opts))
	col.waitCount(t, "three events", 3)
	if got := col.ids(); !slices.Equal(got, []string{"e0", "e1", "e2"}) {
		t.Errorf("delivered %v", got)
	}
	if got := s.afterSeqs(); !slices.Equal(got, []string{"-1", "0"}) {
		t.Errorf("after_seq per connection %v, want [-1 0]", got)
	}
}

// TestSessionErrorAndProgressFrames: an error frame is a warning and the
// socket goes on; progress frames (item_started, delta, item_aborted) and
// types this client does not know are passed over, as the protocol asks.
func TestSessionErrorAndProgressFrames(t *testing.T) {
	s := newScriptServer(t, func(n int, after string) []string {
		return []string{`{"type":"sync","from_seq":-1,"through_seq":1}`, durable(0),
			`{"type":"error","code":"ValidationError","detail":"a JSON object was expected"}`,
			`{"type":"item_started","item_id":"m1","attempt":1,"anchor_seq":0}`,
			`{"type":"delta","item_id":"m1","order":0,"content":"hel"}`,
			`{"type":"item_aborted","item_id":"m1","reason":"cancelled"}`,
			`{"type":"brand_new"}`, durable(1)}
	})
	c, _ := New(s.srv.URL, "k")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	col := collect(c.Watch(ctx, "0123456789abcdef0123456789abcdef", fastWatch()))
	col.waitCount(t, "two events", 2)
	col.mu.Lock()
	warnings := slices.Clone(col.warnings)
	col.mu.Unlock()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "ValidationError: a JSON object was expected") {
		t.Errorf("warnings %q, want the error frame's", warnings)
	}
}

// TestE2ESessionSocketFallsBack: serve without the session socket (as an
// agent-server before 1.45, refusing the route with 403) is watched over
// /sockets/events, every event once; serve with it, over the session
// socket, the same.
func TestE2ESessionSocketFallsBack(t *testing.T) {
	evs := testevents.Generated(t, 40, 21)
	id := fmt.Sprintf("%032x", 0x5e55)
	for _, off := range []bool{true, false} {
		s, c := startServe(t, serve.Options{StartPaused: true, Inject: serve.Faults{NoSessionSocket: off}}, id, nil, evs)
		ctx, cancel := context.WithCancel(context.Background())
		col := collect(c.Watch(ctx, id, fastWatch()))
		col.waitFor(t, "live", func(c *collector) bool { return c.lives() >= 1 })
		s.Run(id)
		col.waitFor(t, "every event", func(c *collector) bool { return len(recordedOf(c.events, evs)) >= len(evs) })
		cancel()
		<-col.done
		sameLog(t, nil, 0, recordedOf(col.events, evs), evs)
		for _, cs := range col.conns {
			if cs.Phase == model.PhaseReconnecting || cs.Phase == model.PhaseLost {
				t.Errorf("session socket off=%v: %+v", off, cs)
			}
		}
	}
}

// TestSessionTransientSnapshot: the snapshot a session socket sends after
// its replay (upstream's buffered subscriber flushes it then) is delivered
// marked live-only, never a recorded event; one older than an event
// already delivered (taken before the replay's last events were appended)
// would state an older status as the latest, and is dropped.
func TestSessionTransientSnapshot(t *testing.T) {
	snapshot := func(id, at, status string) string {
		return `{"type":"transient","event":{"kind":"ConversationStateUpdateEvent","id":"` + id + `","timestamp":"2026-09-01T10:00:` + at +
			`","source":"environment","key":"full_state","value":{"execution_status":"` + status + `"}}}`
	}
	s := newScriptServer(t, func(n int, after string) []string {
		return []string{`{"type":"sync","from_seq":-1,"through_seq":2}`, durable(0), durable(1), durable(2),
			snapshot("old", "01", "running"), snapshot("new", "09", "finished"), durable(3)}
	})
	c, _ := New(s.srv.URL, "k")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	col := collect(c.Watch(ctx, "0123456789abcdef0123456789abcdef", fastWatch()))
	col.waitFor(t, "the last event", func(c *collector) bool { return slices.Contains(c.idsLocked(), "e3") })
	col.mu.Lock()
	defer col.mu.Unlock()
	var got []string
	for _, ev := range col.events {
		got = append(got, ev.ID)
	}
	if !slices.Equal(got, []string{"e0", "e1", "e2", "new", "e3"}) {
		t.Fatalf("delivered %v, want the older snapshot dropped", got)
	}
	for _, ev := range col.events {
		if su, ok := ev.Body.(*model.StateUpdate); ok && ev.ID == "new" && (!su.Subscribe || model.Persisted(ev)) {
			t.Errorf("the snapshot is not marked live-only: %+v", su)
		}
	}
}

// TestSessionFramesKeepNoKey: a session socket that echoes the session key
// in an event and in an error frame hands on neither.
func TestSessionFramesKeepNoKey(t *testing.T) {
	const key = "sk-oh-3c2b1a0f9e8d7c6b5a4f1b4a7e9d"
	s := newScriptServer(t, func(n int, after string) []string {
		return []string{`{"type":"sync","from_seq":-1,"through_seq":0}`,
			`{"type":"durable","seq":0,"event":{"kind":"MessageEvent","id":"m0","timestamp":"2026-09-01T10:00:00","source":"user","llm_message":{"role":"user","content":[{"type":"text","text":"my key is ` + key + `"}]}}}`,
			`{"type":"error","code":"AuthEcho","detail":"you sent ` + key + `"}`}
	})
	c, _ := New(s.srv.URL, key)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	col := collect(c.Watch(ctx, "0123456789abcdef0123456789abcdef", fastWatch()))
	col.waitFor(t, "the event and the warning", func(c *collector) bool { return len(c.idsLocked()) == 1 && len(c.warnings) == 1 })
	col.mu.Lock()
	defer col.mu.Unlock()
	if strings.Contains(string(col.events[0].Raw), key) || strings.Contains(col.events[0].Summary, key) || strings.Contains(col.warnings[0], key) {
		t.Errorf("the key came through: %s / %q", col.events[0].Raw, col.warnings[0])
	}
}
