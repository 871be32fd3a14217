package agentserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// fakeServer is a small, protocol-faithful agent-server for one
// conversation (protocol §7, §9): paged event search with an inclusive
// page_id and timestamp__gte, conversation info, server_info, control
// routes, and the event socket with first-frame auth, a full_state first
// frame, resend_mode since/all replay and live events. Knobs make it
// misbehave the ways real servers do.
type fakeServer struct {
	t   testing.TB
	srv *httptest.Server
	id  string
	key string

	mu      sync.Mutex
	events  [][]byte // persisted, in log order
	times   []string // their timestamps
	subs    map[int]chan []byte
	nextSub int
	clock   time.Time
	seq     int
	deleted bool

	// Behaviour knobs (set before use, or under mu).
	version      string
	ignoreSince  bool   // treat resend_mode=since as live-only
	replayTwice  bool   // interleave: send live tail, then replay everything (duplicates)
	staleUpdates bool   // after the snapshot, resend an old execution_status=running
	silent       bool   // after auth, stop reading (no pongs) and send nothing
	socketKey    string // when set, the key the socket wants instead of key
	closeWith    websocket.StatusCode
	pageLimit    int
	// pings, when set, gets a value for every ping a socket receives (not
	// waiting when it is full).
	pings chan struct{}
	// beforeSubscribe, when set, runs as a socket connects, before the
	// server subscribes it (to change the conversation in between).
	beforeSubscribe func()
	// whileSubscribing, when set, runs once the socket is subscribed and
	// before its snapshot: the live frames it emits precede the snapshot
	// and the replay, as those the server publishes while it builds the
	// snapshot do.
	whileSubscribing func()
	// beforeEventSearch, when set, runs as a search of the event log
	// starts (to change the conversation just before a client reads it).
	beforeEventSearch func()
	// snapshotStatus is the status of the socket's first full_state
	// ("running" when empty).
	snapshotStatus string

	// Observations.
	urls        []string // every request URI seen
	headers     []http.Header
	sockets     []string // raw query of each socket connection
	posts       []string // method+path of control calls
	headerAuths int      // sockets authenticated by header
	bodies      []string
}

const fakeConversation = "a1b2c3d4e5f60718293a4b5c6d7e8f90"

func newFakeServer(t testing.TB, key string) *fakeServer {
	t.Helper()
	f := &fakeServer{
		t:       t,
		id:      fakeConversation,
		key:     key,
		subs:    map[int]chan []byte{},
		clock:   time.Date(2026, 1, 27, 3, 56, 22, 0, time.UTC),
		version: "1.43.1",
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /server_info", f.serverInfo)
	mux.HandleFunc("GET /api/conversations/search", f.auth(f.searchConversations))
	mux.HandleFunc("GET /api/conversations/count", f.auth(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "1")
	}))
	mux.HandleFunc("GET /api/conversations/{id}", f.auth(f.conversation))
	mux.HandleFunc("GET /api/conversations/{id}/events/search", f.auth(f.searchEvents))
	mux.HandleFunc("POST /api/conversations/{id}/{action}", f.auth(f.control))
	mux.HandleFunc("POST /api/conversations/{id}/events/respond_to_confirmation", f.auth(f.control))
	mux.HandleFunc("/sockets/events/{id}", f.socket)
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.urls = append(f.urls, r.URL.String())
		f.headers = append(f.headers, r.Header.Clone())
		f.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// client returns a Client for the fake with the given options.
func (f *fakeServer) client(t *testing.T, opts ...Option) *Client {
	t.Helper()
	c, err := New(f.srv.URL, f.key, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// auth wraps a REST handler with the header check.
func (f *fakeServer) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if f.key != "" && r.Header.Get(sessionHeader) != f.key {
			http.Error(w, `{"detail":"Unauthorized"}`, http.StatusUnauthorized)
			return
		}
		if id := r.PathValue("id"); id != "" && id != f.id {
			http.Error(w, `{"detail":"Not Found"}`, http.StatusNotFound)
			return
		}
		f.mu.Lock()
		gone := f.deleted
		f.mu.Unlock()
		if gone && r.PathValue("id") != "" {
			http.Error(w, `{"detail":"Not Found"}`, http.StatusNotFound)
			return
		}
		h(w, r)
	}
}

// eventLocked makes a persisted-looking event with a fresh id and a
// timestamp one millisecond after the previous one (naive, microseconds,
// as the SDK writes). f.mu is held.
func (f *fakeServer) eventLocked(kind string, extra string) []byte {
	f.clock = f.clock.Add(time.Millisecond)
	f.seq++
	id := fmt.Sprintf("e0e0e0e0-0000-4000-8000-%012d", f.seq)
	ts := f.clock.Format("2006-01-02T15:04:05.000000")
	if extra != "" {
		extra = "," + extra
	}
	return []byte(fmt.Sprintf(`{"kind":%q,"id":%q,"timestamp":%q,"source":"agent"%s}`, kind, id, ts, extra))
}

// emit persists n new events and pushes them to live subscribers; it
// returns their ids.
func (f *fakeServer) emit(n int) []string {
	var ids []string
	for range n {
		f.mu.Lock()
		raw := f.eventLocked("MessageEvent", `"llm_message":{"role":"assistant","content":[{"type":"text","text":"hi"}]}`)
		f.persistLocked(raw)
		for _, ch := range f.subs {
			ch <- raw
		}
		f.mu.Unlock()
		ids = append(ids, idOf(raw))
	}
	return ids
}

// persist appends events to the log without telling subscribers (events
// emitted while a client is away).
func (f *fakeServer) persist(n int) []string {
	var ids []string
	f.mu.Lock()
	defer f.mu.Unlock()
	for range n {
		raw := f.eventLocked("MessageEvent", `"llm_message":{"role":"assistant","content":[{"type":"text","text":"hi"}]}`)
		f.persistLocked(raw)
		ids = append(ids, idOf(raw))
	}
	return ids
}

func (f *fakeServer) persistLocked(raw []byte) {
	f.events = append(f.events, raw)
	f.times = append(f.times, tsOf(raw))
}

// broadcast pushes a live-only frame (full_state, streaming delta).
func (f *fakeServer) broadcast(raw []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, ch := range f.subs {
		ch <- raw
	}
}

// dropAll closes every live socket abruptly (as a proxy restart would).
func (f *fakeServer) dropAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k, ch := range f.subs {
		close(ch)
		delete(f.subs, k)
	}
}

func idOf(raw []byte) string {
	var v struct {
		ID string `json:"id"`
	}
	json.Unmarshal(raw, &v)
	return v.ID
}

func tsOf(raw []byte) string {
	var v struct {
		Timestamp string `json:"timestamp"`
	}
	json.Unmarshal(raw, &v)
	return v.Timestamp
}

func (f *fakeServer) serverInfo(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	v := f.version
	f.mu.Unlock()
	fmt.Fprintf(w, `{"uptime":12.5,"idle_time":3.25,"title":"OpenHands Agent Server","version":%q,"sdk_version":%q}`, v, v)
}

func (f *fakeServer) conversationJSON(status string) string {
	return fmt.Sprintf(`{"id":"a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90","title":"Fix the bug","execution_status":%q,"max_iterations":500,"created_at":"2026-01-27T03:56:22.906445Z","updated_at":"2026-01-27T04:00:00Z","stats":{"usage_to_metrics":{}}}`, status)
}

func (f *fakeServer) conversation(w http.ResponseWriter, r *http.Request) {
	fmt.Fprint(w, f.conversationJSON("running"))
}

func (f *fakeServer) searchConversations(w http.ResponseWriter, r *http.Request) {
	// Two pages: the first points at the second (inclusive page id).
	if r.URL.Query().Get("page_id") == "" {
		fmt.Fprintf(w, `{"items":[%s,null],"next_page_id":"p2"}`, f.conversationJSON("finished"))
		return
	}
	fmt.Fprintf(w, `{"items":[%s],"next_page_id":null}`, strings.Replace(f.conversationJSON("idle"), "a1b2", "ffff", 1))
}

// searchEvents pages the log like the agent-server: page_id is inclusive,
// an unknown page_id restarts from the beginning, timestamp__gte filters.
func (f *fakeServer) searchEvents(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	before := f.beforeEventSearch
	f.mu.Unlock()
	if before != nil {
		before()
	}
	q := r.URL.Query()
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	f.mu.Lock()
	if f.pageLimit > 0 {
		limit = min(limit, f.pageLimit)
	}
	var evs [][]byte
	for i, raw := range f.events {
		if gte := q.Get("timestamp__gte"); gte != "" && f.times[i] < gte {
			continue
		}
		evs = append(evs, raw)
	}
	f.mu.Unlock()
	start := 0
	if pid := q.Get("page_id"); pid != "" {
		for i, raw := range evs {
			if idOf(raw) == pid {
				start = i
			}
		}
	}
	end := min(start+limit, len(evs))
	items := make([]string, 0, end-start)
	for _, raw := range evs[start:end] {
		items = append(items, string(raw))
	}
	next := "null"
	if end < len(evs) {
		next = strconv.Quote(idOf(evs[end]))
	}
	fmt.Fprintf(w, `{"items":[%s],"next_page_id":%s}`, strings.Join(items, ","), next)
}

func (f *fakeServer) control(w http.ResponseWriter, r *http.Request) {
	var body strings.Builder
	buf := make([]byte, 4096)
	n, _ := r.Body.Read(buf)
	body.Write(buf[:n])
	f.mu.Lock()
	f.posts = append(f.posts, r.Method+" "+r.URL.Path)
	f.bodies = append(f.bodies, body.String())
	f.mu.Unlock()
	if r.PathValue("action") == "run" {
		http.Error(w, `{"detail":"already running"}`, http.StatusConflict)
		return
	}
	fmt.Fprint(w, `{"success":true}`)
}

// fullState is a live-only snapshot frame.
func (f *fakeServer) fullState(status string) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fullStateLocked(status)
}

func (f *fakeServer) fullStateLocked(status string) []byte {
	f.clock = f.clock.Add(time.Millisecond)
	f.seq++
	id := fmt.Sprintf("f5f5f5f5-0000-4000-8000-%012d", f.seq)
	return []byte(fmt.Sprintf(`{"kind":"ConversationStateUpdateEvent","id":%q,"timestamp":%q,"source":"environment","key":"full_state","value":{"execution_status":%q}}`,
		id, f.clock.Format("2006-01-02T15:04:05.000000"), status))
}

// socket serves /sockets/events/{id} as the agent-server does.
func (f *fakeServer) socket(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.sockets = append(f.sockets, r.URL.RawQuery)
	closeWith, silent := f.closeWith, f.silent
	wantKey := f.key
	if f.socketKey != "" {
		wantKey = f.socketKey
	}
	pings := f.pings
	f.mu.Unlock()
	var accept *websocket.AcceptOptions
	if pings != nil {
		accept = &websocket.AcceptOptions{OnPingReceived: func(context.Context, []byte) bool {
			select {
			case pings <- struct{}{}:
			default:
			}
			return true
		}}
	}
	conn, err := websocket.Accept(w, r, accept)
	if err != nil {
		return
	}
	defer conn.CloseNow()
	ctx := r.Context()
	if wantKey != "" && r.Header.Get(sessionHeader) == wantKey {
		f.mu.Lock()
		f.headerAuths++
		f.mu.Unlock()
	} else if wantKey != "" {
		actx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, data, err := conn.Read(actx)
		cancel()
		var a authFrame
		if err != nil || json.Unmarshal(data, &a) != nil || a.Type != "auth" || a.SessionAPIKey != wantKey {
			conn.Close(closeAuthFailed, "Authentication failed")
			return
		}
	}
	if r.PathValue("id") != f.id {
		conn.Close(closeNotFound, "Conversation not found")
		return
	}
	if closeWith != 0 {
		conn.Close(closeWith, "go away")
		return
	}
	if silent {
		// Never read again: pings go unanswered.
		select {
		case <-ctx.Done():
		case <-time.After(2 * time.Second):
		}
		return
	}
	f.mu.Lock()
	before := f.beforeSubscribe
	f.mu.Unlock()
	if before != nil {
		before()
	}
	// Subscribe before the replay, as the server does: live events can
	// interleave with replayed ones.
	ch := make(chan []byte, 1<<16)
	f.mu.Lock()
	sub := f.nextSub
	f.nextSub++
	f.subs[sub] = ch
	status := f.snapshotStatus
	if status == "" {
		status = "running"
	}
	snapshot := f.fullStateLocked(status)
	var replay [][]byte
	q := r.URL.Query()
	mode := q.Get("resend_mode")
	if q.Get("resend_all") == "true" && mode == "" {
		mode = "all"
	}
	switch {
	case mode == "all" || (mode == "since" && f.replayTwice):
		replay = append(replay, f.events...)
	case mode == "since" && !f.ignoreSince:
		after := q.Get("after_timestamp")
		for i, raw := range f.events {
			if f.times[i] >= after {
				replay = append(replay, raw)
			}
		}
	}
	stale := f.staleUpdates
	replayTwice := f.replayTwice
	during := f.whileSubscribing
	f.mu.Unlock()
	var early [][]byte
	if during != nil {
		during()
		for len(ch) > 0 {
			early = append(early, <-ch)
		}
	}
	defer func() {
		f.mu.Lock()
		delete(f.subs, sub)
		f.mu.Unlock()
	}()
	// Keep reading so that pings are answered and client frames consumed.
	rctx := f.readAfterAuth(ctx, conn)
	write := func(raw []byte) bool { return conn.Write(rctx, websocket.MessageText, raw) == nil }
	for _, raw := range early {
		if !write(raw) {
			return
		}
	}
	if !write(snapshot) {
		return
	}
	if replayTwice && len(replay) > 0 {
		// The newest events first, as live frames would, then the whole log.
		tail := replay[len(replay)-min(3, len(replay)):]
		for _, raw := range tail {
			if !write(raw) {
				return
			}
		}
	}
	if stale {
		old := []byte(`{"kind":"ConversationStateUpdateEvent","id":"0ld0ld00-0000-4000-8000-000000000001","timestamp":"2026-01-27T03:56:22.000001","source":"environment","key":"execution_status","value":"running"}`)
		if !write(old) {
			return
		}
	}
	for _, raw := range replay {
		if !write(raw) {
			return
		}
	}
	for {
		select {
		case raw, ok := <-ch:
			if !ok {
				conn.CloseNow()
				return
			}
			if !write(raw) {
				return
			}
		case <-rctx.Done():
			return
		}
	}
}

// readAfterAuth reads the client's frames until the connection ends, as
// the server does after auth: an auth frame (a second one, or one sent to
// a server without keys) is ignored (protocol §7: "always safe to send");
// any other data frame closes the socket as a policy violation. The
// context it returns ends with the reading.
func (f *fakeServer) readAfterAuth(ctx context.Context, conn *websocket.Conn) context.Context {
	rctx, cancel := context.WithCancel(ctx)
	go func() {
		defer cancel()
		for {
			_, data, err := conn.Read(rctx)
			if err != nil {
				return
			}
			var a authFrame
			if json.Unmarshal(data, &a) == nil && a.Type == "auth" {
				continue
			}
			conn.Close(websocket.StatusPolicyViolation, "unexpected data message")
			return
		}
	}()
	return rctx
}
