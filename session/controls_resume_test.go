package session

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"ohwatch/client/agentserver"
)

// finishingServer is an agent-server as the 1.43 one is right after a
// pause: its status says paused, but /run answers 409 "already running"
// the first refusals times (the paused run still delivers its events),
// then takes the run. status is what it says the conversation is.
type finishingServer struct {
	mu       sync.Mutex
	status   string
	refusals int
	runs     int
}

const finishingID = "0f0e0d0c0b0a09080706050403020100"

func (f *finishingServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/api/conversations/"+finishingID+"/run":
		f.runs++
		if f.runs <= f.refusals {
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(`{"detail":"Conversation already running. Wait for completion or pause first."}`))
			return
		}
		f.status = "running"
		_, _ = w.Write([]byte(`{"success":true}`))
	case r.Method == http.MethodGet && r.URL.Path == "/api/conversations/"+finishingID:
		_, _ = w.Write([]byte(`{"id":"` + finishingID + `","execution_status":"` + f.status + `"}`))
	default:
		http.NotFound(w, r)
	}
}

func finishingClient(t *testing.T, f *finishingServer) *agentserver.Client {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := agentserver.New(srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// now is a clock whose waits are over at once: the test counts them.
func now(waits *[]time.Duration) func(time.Duration) <-chan time.Time {
	return func(d time.Duration) <-chan time.Time {
		*waits = append(*waits, d)
		ch := make(chan time.Time, 1)
		ch <- time.Time{}
		return ch
	}
}

// TestResumeWaitsForThePausedRun: a resume the server refuses as
// "already running" while it says paused is asked again, with a growing
// bounded wait, until the server takes it, and the person is told what
// it waits for; no raw 409 reaches them.
func TestResumeWaitsForThePausedRun(t *testing.T) {
	f := &finishingServer{status: "paused", refusals: 7}
	c := finishingClient(t, f)
	var said []string
	var waits []time.Duration
	err := runWaiting(context.Background(), c, finishingID, func(s string) { said = append(said, s) }, now(&waits))
	if err != nil {
		t.Fatalf("the resume was not taken: %v", err)
	}
	if f.runs != 8 || f.status != "running" {
		t.Errorf("%d asks, status %s; want 8 and running", f.runs, f.status)
	}
	if len(said) != 7 || !strings.Contains(said[0], "still finishing the paused run") {
		t.Errorf("said %q", said)
	}
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second, 4 * time.Second}
	if len(waits) != len(want) {
		t.Fatalf("waits %v, want %v", waits, want)
	}
	for i := range want {
		if waits[i] != want[i] {
			t.Fatalf("waits %v, want %v", waits, want)
		}
	}
}

// TestResumeOfARunningConversation: a 409 for a conversation the server
// says runs is told at once, in words, and not asked again.
func TestResumeOfARunningConversation(t *testing.T) {
	f := &finishingServer{status: "running", refusals: 100}
	c := finishingClient(t, f)
	var waits []time.Duration
	err := runWaiting(context.Background(), c, finishingID, func(string) { t.Error("a running conversation is not waited for") }, now(&waits))
	if err == nil || !strings.Contains(err.Error(), "already running") || strings.Contains(err.Error(), "409") {
		t.Errorf("error %v, want one saying it already runs", err)
	}
	if f.runs != 1 {
		t.Errorf("asked %d times", f.runs)
	}
}

// TestResumeGivesUpPlainly: a server that never takes the resume before
// the person's bound gives a line that says what happened, not the 409.
func TestResumeGivesUpPlainly(t *testing.T) {
	f := &finishingServer{status: "paused", refusals: 1 << 30}
	c := finishingClient(t, f)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	waits := 0
	err := runWaiting(ctx, c, finishingID, nil, func(time.Duration) <-chan time.Time {
		ch := make(chan time.Time, 1)
		if waits++; waits == 3 {
			cancel() // the person's bound passes during the third wait
		} else {
			ch <- time.Time{}
		}
		return ch
	})
	if err == nil || !strings.Contains(err.Error(), "still finishing the paused run") || !strings.Contains(err.Error(), "nothing resumed") {
		t.Errorf("error %v, want a plain give-up", err)
	}
}
