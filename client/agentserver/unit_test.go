package agentserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/synctest"
	"time"

	"github.com/coder/websocket"

	"ohwatch/model"
)

func TestBackoffDoublesToTheCap(t *testing.T) {
	b := backoff{base: time.Second, max: 30 * time.Second}
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30}
	for i, w := range want {
		if got := b.delay(i + 1); got != w*time.Second {
			t.Errorf("delay(%d) = %v, want %v", i+1, got, w*time.Second)
		}
	}
	b.jitter = func(d time.Duration) time.Duration { return d * 3 }
	if got := b.delay(5); got != 30*time.Second {
		t.Errorf("jittered delay escapes the cap: %v", got)
	}
	b.jitter = func(d time.Duration) time.Duration { return d / 2 }
	if got := b.delay(3); got != 2*time.Second {
		t.Errorf("jitter not applied: %v", got)
	}
}

func TestEqualJitterStaysInRange(t *testing.T) {
	for range 1000 {
		d := equalJitter(10 * time.Second)
		if d < 5*time.Second || d > 10*time.Second {
			t.Fatalf("equalJitter(10s) = %v, outside [5s, 10s]", d)
		}
	}
}

func TestShiftTimestamp(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"2026-01-27T03:56:22.906445", "2026-01-27T03:56:20.906445"},
		{"2026-01-27T03:56:22", "2026-01-27T03:56:20.000000"},
		{"2026-01-27T03:56:22.906445Z", "2026-01-27T03:56:20.906445Z"},
		{"2026-01-27T03:56:22.5+02:00", "2026-01-27T03:56:20.5+02:00"},
	} {
		got, ok := shiftTimestamp(tc.in, 2*time.Second)
		if !ok || got != tc.want {
			t.Errorf("shiftTimestamp(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
	if _, ok := shiftTimestamp("yesterday", time.Second); ok {
		t.Error("an unreadable timestamp was shifted")
	}
}

func TestFeaturesOfVersion(t *testing.T) {
	for _, tc := range []struct {
		v           string
		since, auth bool
	}{
		{"1.43.1", true, true},
		{"v1.18.1", true, true},
		{"1.18.0", true, false},
		{"1.15.0", true, false},
		{"1.14.9rc1", false, false},
		{"0.9", false, false},
		{"", true, true},
		{"dev", true, true},
	} {
		f := featuresOf(tc.v)
		if f.since != tc.since || f.firstFrameAuth != tc.auth {
			t.Errorf("featuresOf(%q) = %+v, want since=%v auth=%v", tc.v, f, tc.since, tc.auth)
		}
	}
}

func TestAnchorSkipsLiveOnlyEvents(t *testing.T) {
	var a anchor
	ev := func(raw string) model.Event {
		e, err := model.Decode([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	a.observe(ev(`{"kind":"MessageEvent","id":"1","timestamp":"2026-01-27T03:56:22.906445","source":"user","llm_message":{"role":"user","content":[]}}`))
	a.observe(ev(`{"kind":"ConversationStateUpdateEvent","id":"2","timestamp":"2026-01-27T03:59:00","source":"environment","key":"full_state","value":{}}`))
	a.observe(ev(`{"kind":"StreamingDeltaEvent","id":"3","timestamp":"2026-01-27T03:59:01","source":"agent","content":"x"}`))
	a.observe(ev(`{"kind":"PauseEvent","id":"4","timestamp":"2026-01-27T03:50:00","source":"user"}`))
	if got := a.timestamp(); got != "2026-01-27T03:56:22.906445" {
		t.Errorf("anchor = %q, want the newest persisted event's timestamp", got)
	}
}

func TestQueueCoalescesAndKeepsConnOrder(t *testing.T) {
	q := newQueue(5 * time.Millisecond)
	ev := func(id string) model.Event { return model.Event{ID: id} }
	q.conn(model.ConnState{Phase: model.PhaseConnecting})
	q.events([]model.Event{ev("1")})
	q.events([]model.Event{ev("2")})
	q.conn(model.ConnState{Phase: model.PhaseLive})
	q.conn(model.ConnState{Phase: model.PhaseReconnecting, Attempt: 1})
	q.events([]model.Event{ev("3")})
	q.warn("w")
	q.finish()
	out := make(chan model.Batch)
	go q.send(context.Background(), out)
	var got []model.Batch
	for b := range out {
		got = append(got, b)
	}
	if len(got) != 3 {
		t.Fatalf("got %d batches, want 3: %+v", len(got), got)
	}
	if got[0].Conn.Phase != model.PhaseConnecting || len(got[0].Events) != 2 {
		t.Errorf("batch 0 = %+v", got[0])
	}
	if got[1].Conn.Phase != model.PhaseLive || len(got[1].Events) != 0 {
		t.Errorf("batch 1 = %+v", got[1])
	}
	if got[2].Conn.Phase != model.PhaseReconnecting || len(got[2].Events) != 1 || len(got[2].Warnings) != 1 {
		t.Errorf("batch 2 = %+v", got[2])
	}
}

func TestQueueNeverDropsForASlowConsumer(t *testing.T) {
	// In a bubble the consumer's pause is the fake clock's: the producer
	// always runs ahead of it, however loaded the machine.
	synctest.Test(t, func(t *testing.T) {
		q := newQueue(time.Millisecond)
		out := make(chan model.Batch)
		go q.send(context.Background(), out)
		const n = 5000
		go func() {
			for i := range n {
				q.events([]model.Event{{ID: string(rune(i))}})
			}
			q.finish()
		}()
		total, batches := 0, 0
		for b := range out {
			time.Sleep(2 * time.Millisecond) // a slow consumer
			total += len(b.Events)
			batches++
		}
		if total != n {
			t.Fatalf("received %d events, want %d", total, n)
		}
		if batches > n/10 {
			t.Errorf("%d batches for %d events: not coalescing", batches, n)
		}
	})
}

func TestDescribeEnd(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{nil, "connection ended"},
		{fmt.Errorf("failed to get reader: %w", io.EOF), "connection dropped (no close frame)"},
		{websocket.CloseError{Code: 4001, Reason: "Authentication failed"}, "authentication rejected (close 4001): Authentication failed"},
		{websocket.CloseError{Code: 4004}, "conversation not found (close 4004)"},
		{websocket.CloseError{Code: 1013, Reason: "Too many connections"}, "server busy, try again later (close 1013): Too many connections"},
		{websocket.CloseError{Code: 1001}, "closed by the server (1001)"},
		{errors.New("no pong within 15s"), "no pong within 15s"},
	} {
		if got := describeEnd(tc.err); got != tc.want {
			t.Errorf("describeEnd(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
