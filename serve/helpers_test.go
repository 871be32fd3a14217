package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"ohwatch/model"
)

// testKey is the session key the tests' servers require.
const testKey = "test-session-key"

// recording builds a synthetic recording, one event per call, stamped a
// second apart from a fixed start.
type recording struct {
	t     testing.TB
	start time.Time
	evs   []model.Event
}

func newRecording(t testing.TB) *recording {
	return &recording{t: t, start: time.Date(2026, 1, 28, 14, 0, 0, 0, time.UTC)}
}

// add appends an event of kind from source with extra JSON members
// (`"key":"execution_status","value":"running"`) and returns its id.
func (r *recording) add(kind, source, members string) string {
	r.t.Helper()
	id := fmt.Sprintf("00000000-0000-4000-8000-%012d", len(r.evs)+1)
	ts := formatTimestamp(r.start.Add(time.Duration(len(r.evs)) * time.Second))
	raw := fmt.Sprintf(`{"id":%q,"timestamp":%q,"source":%q`, id, ts, source)
	if members != "" {
		raw += "," + members
	}
	raw += fmt.Sprintf(`,"kind":%q}`, kind)
	ev, err := model.Decode([]byte(raw))
	if err != nil {
		r.t.Fatalf("fixture %s: %v", raw, err)
	}
	r.evs = append(r.evs, ev)
	return id
}

func (r *recording) status(s string) string {
	return r.add("ConversationStateUpdateEvent", "environment", fmt.Sprintf(`"key":"execution_status","value":%q`, s))
}

func (r *recording) userMessage(text string) string {
	return r.add("MessageEvent", "user", fmt.Sprintf(`"llm_message":{"role":"user","content":[{"type":"text","text":%q}]},"activated_skills":[],"extended_content":[]`, text))
}

func (r *recording) agentMessage(text string) string {
	return r.add("MessageEvent", "agent", fmt.Sprintf(`"llm_message":{"role":"assistant","content":[{"type":"text","text":%q}]},"llm_response_id":"resp-%d","activated_skills":[],"extended_content":[]`, text, len(r.evs)))
}

func (r *recording) action(command, risk string) string {
	return r.add("ActionEvent", "agent", fmt.Sprintf(`"thought":[],"action":{"kind":"TerminalAction","command":%q},"tool_name":"terminal","tool_call_id":"toolu_%d","tool_call":{"id":"toolu_%d","name":"terminal","arguments":"{}","origin":"completion"},"llm_response_id":"resp-%d","security_risk":%q,"summary":"run it"`, command, len(r.evs), len(r.evs), len(r.evs), risk))
}

func (r *recording) observation(actionID, toolCallID string) string {
	return r.add("ObservationEvent", "environment", fmt.Sprintf(`"tool_name":"terminal","tool_call_id":%q,"action_id":%q,"observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"ok"}],"is_error":false,"exit_code":0}`, toolCallID, actionID))
}

// basicRun is a run that the recording itself marks finished with
// per-field updates: user message, running, action, observation, agent
// reply, finished.
func basicRun(t testing.TB) []model.Event {
	r := newRecording(t)
	r.add("SystemPromptEvent", "agent", `"system_prompt":{"type":"text","text":"You are OpenHands."},"tools":[]`)
	r.userMessage("say hello")
	r.status("running")
	a := r.action("echo hello", "LOW")
	r.observation(a, "toolu_3")
	r.agentMessage("hello")
	r.status("finished")
	return r.evs
}

const convID = "0c8a3d0e-5f1b-4a7e-9d3c-2b1a0f9e8d7c"

// start runs a server on 127.0.0.1 with the given conversations and
// returns it with its base URL; it is closed when the test ends.
func start(t testing.TB, opts Options, convs map[string][]model.Event) (*Server, string) {
	t.Helper()
	s := New(opts)
	for id, evs := range convs {
		s.Add(id, nil, evs)
	}
	url, err := s.Start(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, url
}

// get performs a GET with the test key (when key is not "") and decodes
// the JSON answer into v (when v is not nil); it returns the status.
func get(t testing.TB, url, key string, v any) int {
	t.Helper()
	return do(t, http.MethodGet, url, key, "", v)
}

func post(t testing.TB, url, key, body string, v any) int {
	t.Helper()
	return do(t, http.MethodPost, url, key, body, v)
}

func do(t testing.TB, method, url, key, body string, v any) int {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-Session-API-Key", key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if v != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s %s: %v in %s", method, url, err, data)
		}
	}
	return resp.StatusCode
}

// page is an events/search or conversations/search answer.
type page struct {
	Items      []json.RawMessage `json:"items"`
	NextPageID *string           `json:"next_page_id"`
}

// eachPage reads a paged search to its end: it gets first (a URL that
// already carries a query, at least its limit), then the same URL with
// page_id set to each next_page_id, and calls fn with every page and the
// page_id it was asked with ("" for the first page). It fails on a non-200
// answer, and when paging has not ended after maxPages pages.
func eachPage(tb testing.TB, first, key string, maxPages int, fn func(p page, pageID string)) {
	tb.Helper()
	pageID := ""
	for n := 1; ; n++ {
		url := first
		if pageID != "" {
			url += "&page_id=" + pageID
		}
		var p page
		if code := get(tb, url, key, &p); code != http.StatusOK {
			tb.Fatalf("HTTP %d", code)
		}
		fn(p, pageID)
		if p.NextPageID == nil {
			return
		}
		if n >= maxPages {
			tb.Fatal("paging does not end")
		}
		pageID = *p.NextPageID
	}
}

// eventsURL is the REST events route of conversation id.
func eventsURL(base, id, rest string) string {
	return base + "/api/conversations/" + id + "/events" + rest
}

// wsClient is a tiny test client of the event socket. A goroutine reads
// the frames into a channel, so a test can wait for a frame with a timeout
// without the timeout tearing the socket down.
type wsClient struct {
	t      testing.TB
	conn   *websocket.Conn
	frames chan frameOrErr
}

type frameOrErr struct {
	data []byte
	err  error
}

// dial opens the event socket of id with the query (without "?") and
// header; it fails the test when the handshake fails.
func dial(t testing.TB, base, id, query string, header http.Header) *wsClient {
	t.Helper()
	c, resp, err := dialRaw(base, id, query, header)
	if err != nil {
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		t.Fatalf("dial: %v (HTTP %d)", err, status)
	}
	t.Cleanup(func() { _ = c.conn.CloseNow() })
	c.t = t
	return c
}

func dialRaw(base, id, query string, header http.Header) (*wsClient, *http.Response, error) {
	url := "ws" + strings.TrimPrefix(base, "http") + "/sockets/events/" + id
	if query != "" {
		url += "?" + query
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		return nil, resp, err
	}
	conn.SetReadLimit(-1)
	c := &wsClient{conn: conn, frames: make(chan frameOrErr, 1024)}
	go func() {
		for {
			_, data, err := conn.Read(context.Background())
			c.frames <- frameOrErr{data, err}
			if err != nil {
				return
			}
		}
	}()
	return c, resp, nil
}

// auth sends the first-frame auth.
func (c *wsClient) auth(key string) {
	c.t.Helper()
	c.sendText(fmt.Sprintf(`{"type":"auth","session_api_key":%q}`, key))
}

func (c *wsClient) sendText(s string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, websocket.MessageText, []byte(s)); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// errNoFrame is readRaw's answer when no frame came in time.
var errNoFrame = errors.New("no frame in time")

// readRaw returns the next frame, the error that ended the socket, or
// errNoFrame after timeout (the socket stays usable).
func (c *wsClient) readRaw(timeout time.Duration) ([]byte, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case f := <-c.frames:
		if f.err != nil {
			// Keep reporting the end to later reads.
			c.frames <- f
		}
		return f.data, f.err
	case <-timer.C:
		return nil, errNoFrame
	}
}

// next reads and decodes the next frame, failing the test on an error.
func (c *wsClient) next() model.Event {
	c.t.Helper()
	data, err := c.readRaw(5 * time.Second)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	ev, err := model.Decode(data)
	if err != nil {
		c.t.Fatalf("frame is not an event: %v: %s", err, data)
	}
	return ev
}

// nextEvent reads the next frame that is not a full_state snapshot. A
// snapshot's place relative to the replay depends on when the socket
// subscribed (it is the first frame, or it follows the status that stopped
// the run), so tests about the recorded events read past it.
func (c *wsClient) nextEvent() model.Event {
	c.t.Helper()
	for {
		ev := c.next()
		if full, _ := isFullState(ev); !full {
			return ev
		}
	}
}

// quietFor fails the test when a frame other than a snapshot arrives
// within d.
func (c *wsClient) quietFor(d time.Duration, what string) {
	c.t.Helper()
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return
		}
		data, err := c.readRaw(left)
		if errors.Is(err, errNoFrame) {
			return
		}
		if err != nil {
			c.t.Fatalf("%s: the socket ended: %v", what, err)
		}
		if ev, derr := model.Decode(data); derr != nil {
			c.t.Fatalf("%s: frame is not an event: %s", what, data)
		} else if full, _ := isFullState(ev); !full {
			c.t.Fatalf("%s: %s", what, data)
		}
	}
}

// nextN reads n frames.
func (c *wsClient) nextN(n int) []model.Event {
	c.t.Helper()
	out := make([]model.Event, n)
	for i := range out {
		out[i] = c.next()
	}
	return out
}

// until reads frames until one satisfies ok, returning all read.
func (c *wsClient) until(ok func(model.Event) bool) []model.Event {
	c.t.Helper()
	var out []model.Event
	for {
		ev := c.next()
		out = append(out, ev)
		if ok(ev) {
			return out
		}
	}
}

// closeCode reads until the socket ends and returns its close code (-1
// when it ended without a close frame).
func (c *wsClient) closeCode() websocket.StatusCode {
	c.t.Helper()
	for {
		_, err := c.readRaw(5 * time.Second)
		if errors.Is(err, errNoFrame) {
			c.t.Fatal("the socket did not close")
		}
		if err != nil {
			return websocket.CloseStatus(err)
		}
	}
}

// isFullState reports whether ev is a full_state snapshot, and its status.
func isFullState(ev model.Event) (bool, string) {
	u, ok := ev.Body.(*model.StateUpdate)
	if !ok || !u.FullState {
		return false, ""
	}
	return true, u.ExecutionStatus
}

// statusOf returns the execution status a per-field update sets ("" for
// other events).
func statusOf(ev model.Event) string {
	if u, ok := ev.Body.(*model.StateUpdate); ok && !u.FullState && u.Key == "execution_status" {
		return u.ExecutionStatus
	}
	return ""
}

func ids(evs []model.Event) []string {
	out := make([]string, len(evs))
	for i, ev := range evs {
		out[i] = ev.ID
	}
	return out
}

func rawEqual(a, b []byte) bool { return bytes.Equal(a, b) }

// waitFor polls cond until it holds or the test's patience ends.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// eventCount is GET events/count.
func eventCount(t testing.TB, base, id string) int {
	t.Helper()
	var n int
	if code := get(t, eventsURL(base, id, "/count"), testKey, &n); code != http.StatusOK {
		t.Fatalf("count: HTTP %d", code)
	}
	return n
}

// waitPlayed waits until the conversation convID of s has played out: every
// event emitted and the confirming snapshot sent, so a socket opened now
// gets nothing more than it asked for.
func waitPlayed(t testing.TB, s *Server) {
	t.Helper()
	waitFor(t, "the replay", func() bool { return s.conversation(convID).finished() })
}

// recordedOnly drops from frames the per-field execution_status updates the
// server made up (those whose id no recorded event has), failing the test
// on any other frame that is not recorded.
func recordedOnly[B ~[]byte](t testing.TB, frames []B, recorded []model.Event) []B {
	t.Helper()
	known := make(map[string]bool, len(recorded))
	for _, ev := range recorded {
		known[ev.ID] = true
	}
	var out []B
	for _, raw := range frames {
		ev, err := model.Decode(raw)
		if err != nil {
			t.Fatalf("frame is not an event: %v", err)
		}
		if known[ev.ID] {
			out = append(out, raw)
			continue
		}
		if statusOf(ev) == "" {
			t.Fatalf("a frame neither recorded nor a status update: %s", raw)
		}
	}
	return out
}
