package serve

import (
	"net/http"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// replayed starts a server that has emitted the whole of basicRun, with
// the faults given, and returns it, its URL and the recording.
func replayed(t *testing.T, f Faults) (*Server, string, []model.Event) {
	t.Helper()
	evs := basicRun(t)
	s, base := start(t, Options{Inject: f}, map[string][]model.Event{convID: evs})
	waitFor(t, "the replay", func() bool { return s.conversation(convID).finished() })
	return s, base, evs
}

func TestFaultReplayOverlap(t *testing.T) {
	_, base, evs := replayed(t, Faults{ReplayOverlap: 2})
	ws := dial(t, base, convID, "resend_mode=all", nil)
	got := ws.nextN(1 + 2 + len(evs))
	if ok, _ := isFullState(got[0]); !ok {
		t.Fatal("snapshot is not first")
	}
	// The newest two arrive first, as if live, then again in the replay.
	want := append([]string{evs[5].ID, evs[6].ID}, ids(evs)...)
	for i, id := range ids(got[1:]) {
		if id != want[i] {
			t.Fatalf("frame %d is %s, want %s", i+1, id, want[i])
		}
	}
}

func TestFaultStaleState(t *testing.T) {
	_, base, evs := replayed(t, Faults{StaleState: true})
	ws := dial(t, base, convID, "", nil)
	if ok, st := isFullState(ws.next()); !ok || st != "finished" {
		t.Fatal("snapshot is not first")
	}
	// The recording's old per-field updates follow the fresh snapshot.
	if ev := ws.next(); ev.ID != evs[2].ID || statusOf(ev) != "running" {
		t.Fatalf("after the snapshot: %s", ev.Raw)
	}
	if ev := ws.next(); ev.ID != evs[6].ID {
		t.Fatalf("second stale update: %s", ev.Raw)
	}
}

func TestFaultStaleStateMadeUp(t *testing.T) {
	evs := testevents.Twin(t, "simple_echo_hello_world")
	s, base := start(t, Options{Inject: Faults{StaleState: true}}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	ws := dial(t, base, convID, "", nil)
	ws.next()
	// The recording has no status updates: the ones the server sent in
	// their place are the old ones a resend repeats.
	ev := ws.next()
	var p page
	get(t, eventsURL(base, convID, "/search?kind=openhands.sdk.event.conversation_state.ConversationStateUpdateEvent"), "", &p)
	if len(p.Items) == 0 {
		t.Fatal("no status update was sent")
	}
	if statusOf(ev) != "running" || !rawEqual(ev.Raw, p.Items[0]) {
		t.Fatalf("stale update: %s, first sent %s", ev.Raw, p.Items[0])
	}
}

func TestFaultDropAfterFrames(t *testing.T) {
	_, base, _ := replayed(t, Faults{DropAfterFrames: 3})
	for range 2 { // every connection is dropped
		ws := dial(t, base, convID, "resend_mode=all", nil)
		ws.nextN(3)
		if code := ws.closeCode(); code != -1 {
			t.Fatalf("close code %d, want an abrupt drop (no close frame)", code)
		}
	}
}

func TestFaultDropAtFrames(t *testing.T) {
	s, base, _ := replayed(t, Faults{})
	s.SetFaults(Faults{DropAtFrames: []int{2, 5}})
	// The server's frames 1-2 go to the first socket, 3-5 to the second.
	ws := dial(t, base, convID, "resend_mode=all", nil)
	ws.nextN(2)
	if code := ws.closeCode(); code != -1 {
		t.Fatalf("first socket: close code %d", code)
	}
	ws = dial(t, base, convID, "resend_mode=all", nil)
	ws.nextN(3)
	if code := ws.closeCode(); code != -1 {
		t.Fatalf("second socket: close code %d", code)
	}
	ws = dial(t, base, convID, "resend_mode=all", nil)
	ws.nextN(8) // the third one is left alone
}

func TestFaultDropChanceIsReproducible(t *testing.T) {
	frames := func() []int {
		s, base, _ := replayed(t, Faults{DropChance: 0.3, Seed: 42})
		var counts []int
		for range 4 {
			ws := dial(t, base, convID, "resend_mode=all", nil)
			n := 0
			for {
				if _, err := ws.readRaw(2 * time.Second); err != nil {
					break
				}
				n++
				if n == 8 { // the whole resend: not dropped
					_ = ws.conn.CloseNow()
					break
				}
			}
			counts = append(counts, n)
			// The server draws after every frame it sends; the next
			// socket must not start before this one's last draw.
			waitFor(t, "the socket to end", func() bool { return s.conversation(convID).subscribers() == 0 })
		}
		return counts
	}
	a, b := frames(), frames()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different drops: %v vs %v", a, b)
		}
	}
	dropped := false
	for _, n := range a {
		dropped = dropped || n < 8
	}
	if !dropped {
		t.Errorf("no socket dropped at 30%% per frame: %v", a)
	}
}

func TestFaultSilence(t *testing.T) {
	evs := basicRun(t)
	s, base := start(t, Options{StartPaused: true}, map[string][]model.Event{convID: evs})
	ws := dial(t, base, convID, "", nil)
	ws.next()
	s.Run(convID)
	ws.nextN(len(evs) + 1) // the events and the confirming snapshot
	if !s.Silence(convID) {
		t.Fatal("Silence: conversation not found")
	}
	if code := get(t, base+"/api/conversations/"+convID, "", nil); code != http.StatusNotFound {
		t.Errorf("REST after silence: HTTP %d, want 404", code)
	}
	if code := get(t, eventsURL(base, convID, "/search"), "", nil); code != http.StatusNotFound {
		t.Errorf("events after silence: HTTP %d, want 404", code)
	}
	var n int
	if get(t, base+"/api/conversations/count", "", &n); n != 0 {
		t.Errorf("count after silence: %d", n)
	}
	// The socket stays open and says nothing, even to a message.
	ws.sendText(`{"role":"user","content":[{"type":"text","text":"hello?"}]}`)
	if data, err := ws.readRaw(100 * time.Millisecond); err != errNoFrame {
		t.Fatalf("silent socket: %s %v", data, err)
	}
	// A new socket finds no conversation.
	ws2 := dial(t, base, convID, "", nil)
	if code := ws2.closeCode(); code != closeNotFound {
		t.Errorf("new socket to a silent conversation: close %d", code)
	}
}

func TestFaultSilentAfter(t *testing.T) {
	evs := basicRun(t)
	_, base := start(t, Options{Inject: Faults{SilentAfter: 3}, StartPaused: true}, map[string][]model.Event{convID: evs})
	ws := dial(t, base, convID, "", nil)
	ws.next()
	post(t, base+"/api/conversations/"+convID+"/run", "", "", nil)
	ws.nextN(3)
	if data, err := ws.readRaw(100 * time.Millisecond); err != errNoFrame {
		t.Fatalf("frame after the conversation went silent: %s %v", data, err)
	}
	if code := get(t, base+"/api/conversations/"+convID, "", nil); code != http.StatusNotFound {
		t.Errorf("REST: HTTP %d, want 404", code)
	}
}

func TestFaultForcedCloses(t *testing.T) {
	s, base, _ := replayed(t, Faults{CloseAuth: 1, CloseBusy: 2})
	want := []int{closeAuthFailed, closeTryAgainLater, closeTryAgainLater}
	for i, code := range want {
		ws := dial(t, base, convID, "", nil)
		if got := ws.closeCode(); int(got) != code {
			t.Fatalf("socket %d: close %d, want %d", i, got, code)
		}
	}
	ws := dial(t, base, convID, "", nil)
	if ok, _ := isFullState(ws.next()); !ok {
		t.Fatal("the faults did not run out")
	}
	s.SetFaults(Faults{CloseBusy: 1})
	ws = dial(t, base, convID, "", nil)
	if got := ws.closeCode(); got != closeTryAgainLater {
		t.Fatalf("after SetFaults: close %d", got)
	}
}
