package serve

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"ohwatch/internal/fixtures"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

func TestHealthRoutesNeedNoKey(t *testing.T) {
	_, base := start(t, Options{Key: testKey}, nil)
	for path, want := range map[string]string{"/alive": "ok", "/health": "ok", "/ready": "ready"} {
		var body map[string]string
		if code := get(t, base+path, "", &body); code != http.StatusOK || body["status"] != want {
			t.Errorf("%s: HTTP %d %v", path, code, body)
		}
	}
	var info map[string]any
	if code := get(t, base+"/server_info", "", &info); code != http.StatusOK {
		t.Fatalf("server_info: HTTP %d", code)
	}
	if info["version"] != Version || info["sdk_version"] != SDKVersion {
		t.Errorf("server_info versions: %v", info)
	}
	for _, k := range []string{"uptime", "idle_time"} {
		if _, ok := info[k].(float64); !ok {
			t.Errorf("server_info %s: %v", k, info[k])
		}
	}
}

func TestAPIRequiresKey(t *testing.T) {
	_, base := start(t, Options{Key: testKey}, map[string][]model.Event{convID: basicRun(t)})
	routes := []string{
		"/api/conversations/" + convID,
		"/api/conversations/search",
		"/api/conversations/count",
		"/api/conversations/" + convID + "/events/search",
		"/api/conversations/" + convID + "/events/count",
	}
	for _, r := range routes {
		for _, key := range []string{"", "wrong-key"} {
			if code := get(t, base+r, key, nil); code != http.StatusUnauthorized {
				t.Errorf("GET %s with key %q: HTTP %d, want 401", r, key, code)
			}
		}
		if code := get(t, base+r, testKey, nil); code != http.StatusOK {
			t.Errorf("GET %s with the key: HTTP %d", r, code)
		}
	}
	if code := post(t, base+"/api/conversations/"+convID+"/pause", "", "", nil); code != http.StatusUnauthorized {
		t.Errorf("POST pause without key: HTTP %d", code)
	}
}

func TestNoKeyConfiguredAllowsAll(t *testing.T) {
	_, base := start(t, Options{}, map[string][]model.Event{convID: basicRun(t)})
	if code := get(t, base+"/api/conversations/"+convID, "", nil); code != http.StatusOK {
		t.Fatalf("HTTP %d", code)
	}
}

func TestGetConversation(t *testing.T) {
	evs := basicRun(t)
	s, base := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s) // the status below is the one after the whole replay
	hex := strings.ReplaceAll(convID, "-", "")
	for _, id := range []string{convID, hex, strings.ToUpper(hex)} {
		var info map[string]any
		if code := get(t, base+"/api/conversations/"+id, testKey, &info); code != http.StatusOK {
			t.Fatalf("GET %s: HTTP %d", id, code)
		}
		if info["id"] != convID {
			t.Errorf("id = %v, want dashed %s", info["id"], convID)
		}
		if info["execution_status"] != "finished" {
			t.Errorf("execution_status = %v after the whole replay", info["execution_status"])
		}
		if info["title"] != "say hello" {
			t.Errorf("title = %v, want the first user message", info["title"])
		}
		for _, k := range []string{"agent", "stats", "confirmation_policy", "max_iterations", "created_at", "updated_at"} {
			if _, ok := info[k]; !ok {
				t.Errorf("ConversationInfo lacks %s", k)
			}
		}
	}
	if code := get(t, base+"/api/conversations/ffffffff-0000-4000-8000-000000000000", testKey, nil); code != http.StatusNotFound {
		t.Errorf("unknown conversation: HTTP %d", code)
	}
}

func TestConversationInfoUsesBaseStateTemplate(t *testing.T) {
	raw := []byte(`{"id":"` + convID + `","agent":{"kind":"Agent","llm":{"model":"claude"}},"execution_status":"finished","max_iterations":77,"stats":{"usage_to_metrics":{"default":{"accumulated_cost":1.5}}},"tags":{"a":"b"}}`)
	base := &model.BaseState{ID: model.NormalizeConversationID(convID), Title: "Say hello", ExecutionStatus: "finished", MaxIterations: 77, Raw: raw}
	s := New(Options{Key: testKey, StartPaused: true})
	s.Add(convID, base, basicRun(t))
	base1, err := s.Start(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	var info map[string]any
	get(t, base1+"/api/conversations/"+convID, testKey, &info)
	if info["title"] != "Say hello" || info["max_iterations"] != float64(77) {
		t.Errorf("template fields lost: %v", info)
	}
	// base_state.json describes the end; before the replay starts the
	// status is idle and no usage is reported.
	if info["execution_status"] != "idle" {
		t.Errorf("status before the replay = %v, want idle", info["execution_status"])
	}
	if got, _ := json.Marshal(info["stats"]); string(got) != `{"usage_to_metrics":{}}` {
		t.Errorf("stats before the replay = %s", got)
	}
}

func TestSearchAndCountConversations(t *testing.T) {
	convs := map[string][]model.Event{}
	want := []string{
		"00000000-0000-4000-8000-00000000000a",
		"00000000-0000-4000-8000-00000000000b",
		"00000000-0000-4000-8000-00000000000c",
	}
	for _, id := range want {
		convs[id] = basicRun(t)
	}
	s, base := start(t, Options{Key: testKey}, convs)
	for _, id := range want {
		// None may still be running when the counts are taken.
		waitFor(t, "the replay of "+id, func() bool { return s.conversation(id).finished() })
	}
	var n int
	if get(t, base+"/api/conversations/count", testKey, &n); n != 3 {
		t.Errorf("count = %d", n)
	}
	if get(t, base+"/api/conversations/count?status=running", testKey, &n); n != 0 {
		t.Errorf("count running = %d", n)
	}
	var seen []string
	eachPage(t, base+"/api/conversations/search?limit=2", testKey, 5, func(p page, _ string) {
		for _, item := range p.Items {
			var info struct{ ID string }
			_ = json.Unmarshal(item, &info)
			seen = append(seen, info.ID)
		}
	})
	if len(seen) != 3 || seen[0] == seen[1] || seen[1] == seen[2] {
		t.Errorf("paged ids = %v", seen)
	}
}

func TestSearchEventsPaging(t *testing.T) {
	evs := basicRun(t)
	s, base := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)

	var got []json.RawMessage
	eachPage(t, eventsURL(base, convID, "/search?limit=3"), testKey, len(evs), func(p page, pageID string) {
		if pageID != "" {
			// page_id is inclusive: the page starts at that event.
			var first struct{ ID string }
			_ = json.Unmarshal(p.Items[0], &first)
			if first.ID != pageID {
				t.Errorf("page starts at %s, want page_id %s", first.ID, pageID)
			}
		}
		got = append(got, p.Items...)
	})
	if len(got) != len(evs) {
		t.Fatalf("paged %d events, want %d", len(got), len(evs))
	}
	for i := range evs {
		if !rawEqual(got[i], evs[i].Raw) {
			t.Errorf("event %d differs from the recording:\n%s\n%s", i, got[i], evs[i].Raw)
		}
	}

	// An unknown page_id starts from the beginning.
	var p page
	get(t, eventsURL(base, convID, "/search?limit=1&page_id=nope"), testKey, &p)
	if len(p.Items) != 1 || !rawEqual(p.Items[0], evs[0].Raw) {
		t.Errorf("unknown page_id: %s", p.Items)
	}
	for _, limit := range []string{"0", "101", "x"} {
		if code := get(t, eventsURL(base, convID, "/search?limit="+limit), testKey, nil); code != http.StatusUnprocessableEntity {
			t.Errorf("limit=%s: HTTP %d, want 422", limit, code)
		}
	}
	get(t, eventsURL(base, convID, "/search"), testKey, &p)
	if len(p.Items) != len(evs) || p.NextPageID != nil {
		t.Errorf("default limit: %d items, next %v", len(p.Items), p.NextPageID)
	}
}

func TestSearchEventsFilters(t *testing.T) {
	evs := basicRun(t)
	s, base := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	count := func(q string) int {
		t.Helper()
		var p page
		if code := get(t, eventsURL(base, convID, "/search?"+q), testKey, &p); code != http.StatusOK {
			t.Fatalf("%s: HTTP %d", q, code)
		}
		var n int
		get(t, eventsURL(base, convID, "/count?"+q), testKey, &n)
		if n != len(p.Items) {
			t.Errorf("%s: count %d, search %d", q, n, len(p.Items))
		}
		return n
	}
	cases := []struct {
		query string
		want  int
	}{
		{"", 7},
		{"source=user", 1},
		{"source=environment", 3},
		{"kind=" + url.QueryEscape(QualifiedKind("ActionEvent")), 1},
		{"kind=ActionEvent", 0}, // bare names match nothing, as upstream
		{"kind=" + url.QueryEscape("openhands.sdk.event.conversation_state.ConversationStateUpdateEvent"), 2},
		{"kind=" + url.QueryEscape("openhands.sdk.event.llm_convertible.message.MessageEvent") + "&body=HELLO", 2},
		{"body=say", 1},
		{"timestamp__gte=2026-01-28T14:00:03", 4},
		{"timestamp__lt=2026-01-28T14:00:03", 3},
		{"timestamp__gte=2026-01-28T14:00:01&timestamp__lt=2026-01-28T14:00:02", 1},
		{"timestamp__gte=" + url.QueryEscape("2026-01-28T14:00:03+00:00"), 4},
	}
	for _, c := range cases {
		if got := count(c.query); got != c.want {
			t.Errorf("%q: %d events, want %d", c.query, got, c.want)
		}
	}
	var p page
	get(t, eventsURL(base, convID, "/search?sort_order=TIMESTAMP_DESC&limit=2"), testKey, &p)
	if len(p.Items) != 2 || !rawEqual(p.Items[0], evs[6].Raw) || p.NextPageID == nil || *p.NextPageID != evs[4].ID {
		t.Errorf("descending page: %s next %v", p.Items, p.NextPageID)
	}
	for _, q := range []string{"sort_order=SIDEWAYS", "timestamp__gte=yesterday"} {
		if code := get(t, eventsURL(base, convID, "/search?"+q), testKey, nil); code != http.StatusUnprocessableEntity {
			t.Errorf("%s: HTTP %d, want 422", q, code)
		}
	}
}

func TestGetEvent(t *testing.T) {
	evs := basicRun(t)
	s, base := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	var got json.RawMessage
	if code := get(t, eventsURL(base, convID, "/"+evs[3].ID), testKey, &got); code != http.StatusOK || !rawEqual(got, evs[3].Raw) {
		t.Errorf("HTTP %d: %s", code, got)
	}
	if code := get(t, eventsURL(base, convID, "/00000000-0000-4000-8000-999999999999"), testKey, nil); code != http.StatusNotFound {
		t.Errorf("unknown event: HTTP %d", code)
	}
}

func TestOnlyEmittedEventsExist(t *testing.T) {
	evs := basicRun(t)
	_, base := start(t, Options{Key: testKey, StartPaused: true}, map[string][]model.Event{convID: evs})
	if n := eventCount(t, base, convID); n != 0 {
		t.Errorf("%d events before the replay started", n)
	}
	if code := get(t, eventsURL(base, convID, "/"+evs[0].ID), testKey, nil); code != http.StatusNotFound {
		t.Errorf("an event not yet emitted: HTTP %d", code)
	}
	var info map[string]any
	get(t, base+"/api/conversations/"+convID, testKey, &info)
	if info["execution_status"] != "idle" {
		t.Errorf("status before the replay: %v", info["execution_status"])
	}
}

func TestRealRecordingsRoundTrip(t *testing.T) {
	for _, name := range []string{"simple_echo_hello_world", "confirmation_mode", "creating_agent_plan", "cli447_hi_followup_iterative_case_a"} {
		t.Run(name, func(t *testing.T) {
			roundTrip(t, testevents.Twin(t, name))
		})
	}
}

// TestFixtureRecordingsRoundTrip serves the project's own recordings (in
// every clone): one without status updates, one with confirmations, a
// rejection, an error and a condensation, one with unknown kinds.
func TestFixtureRecordingsRoundTrip(t *testing.T) {
	for _, name := range []string{fixtures.CLI, fixtures.Situations, fixtures.Unknown} {
		t.Run(name, func(t *testing.T) {
			roundTrip(t, testevents.Recorded(t, fixtures.Path(t, name)))
		})
	}
}

// roundTrip serves evs and reads them back over REST and the socket: every
// recorded event, byte for byte and in order, with only the status updates
// the server sends between them.
func roundTrip(t *testing.T, evs []model.Event) {
	t.Helper()
	s, base := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	var p page
	get(t, eventsURL(base, convID, "/search"), testKey, &p)
	rest := recordedOnly(t, p.Items, evs)
	for i := range evs {
		if i >= len(rest) || !rawEqual(rest[i], evs[i].Raw) {
			t.Errorf("REST event %d differs from the file", i)
		}
	}
	ws := dial(t, base, convID, "resend_mode=all", nil)
	ws.auth(testKey)
	if ok, _ := isFullState(ws.next()); !ok {
		t.Fatal("first frame is not full_state")
	}
	frames := make([][]byte, len(p.Items))
	for i := range frames {
		data, err := ws.readRaw(5e9)
		if err != nil {
			t.Fatalf("socket frame %d: %v", i, err)
		}
		frames[i] = data
	}
	sock := recordedOnly(t, frames, evs)
	for i := range evs {
		if i >= len(sock) || !rawEqual(sock[i], evs[i].Raw) {
			t.Fatalf("socket frame %d differs from the file", i)
		}
	}
}

func TestTitleFromFirstMessage(t *testing.T) {
	cases := map[string]string{
		"fix the bug":                     "fix the bug",
		"  first line\nsecond line":       "first line",
		strings.Repeat("long words ", 10): "long words long words long words long words long…",
	}
	for in, want := range cases {
		if got := titleFrom(in); got != want {
			t.Errorf("titleFrom(%q) = %q, want %q", in, got, want)
		}
	}
	if got := titleFrom("evil \x1b]0;title\x07 text"); strings.ContainsAny(got, "\x1b\x07") {
		t.Errorf("control characters survive: %q", got)
	}
}
