package serve

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// branchedOpts is the generated conversation whose numbers were computed
// with the SDK 1.43.1 itself: 601 LLM calls (592 agent, 9 condenser),
// leaf_event_id 18881414…, three branch points.
var branchedOpts = gen.Options{Events: 2000, Branches: 3, Seed: 9}

// branchedLeaf is base_state.json's leaf_event_id of branchedOpts.
const branchedLeaf = "18881414-4f32-4dd5-8f1d-32fc5e16231f"

// serveBranched serves the branched conversation (with its base state)
// and waits until all of it is out.
func serveBranched(t *testing.T) (*Server, string, *model.BaseState, []model.Event) {
	t.Helper()
	base := decodeBase(t, gen.BaseState(branchedOpts))
	evs := testevents.GeneratedWith(t, branchedOpts)
	s := New(Options{Key: testKey})
	s.Add(convID, base, evs)
	url, err := s.Start(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	waitPlayed(t, s)
	return s, url, base, evs
}

// usageLists is what a ConversationInfo's (or a full_state's) stats say of
// one usage: its per-call lists.
type usageLists struct {
	Costs     []json.RawMessage `json:"costs"`
	Latencies []json.RawMessage `json:"response_latencies"`
	Usages    []json.RawMessage `json:"token_usages"`
}

func statsLists(t *testing.T, stats json.RawMessage) map[string]usageLists {
	t.Helper()
	var st struct {
		Usage map[string]usageLists `json:"usage_to_metrics"`
	}
	if err := json.Unmarshal(stats, &st); err != nil {
		t.Fatalf("stats: %v in %.200s", err, stats)
	}
	return st.Usage
}

// TestInfoStatsCarryTheCallsTheSDKCounts: an SDK RemoteConversation counts
// LLM calls by the per-call lists of ConversationInfo.stats; a real server
// reports 601 for the branched conversation, so serve must too, in
// ConversationInfo and in the full_state a socket gets first.
func TestInfoStatsCarryTheCallsTheSDKCounts(t *testing.T) {
	_, url, _, _ := serveBranched(t)
	var info struct {
		Leaf  string          `json:"leaf_event_id"`
		Stats json.RawMessage `json:"stats"`
	}
	if code := get(t, url+"/api/conversations/"+convID, testKey, &info); code != http.StatusOK {
		t.Fatalf("HTTP %d", code)
	}
	want := map[string]int{"agent": 592, "condenser": 9}
	check := func(where string, stats json.RawMessage) {
		lists := statsLists(t, stats)
		for id, n := range want {
			l := lists[id]
			if len(l.Costs) != n || len(l.Latencies) != n || len(l.Usages) != n {
				t.Errorf("%s: %s has %d costs, %d latencies, %d token usages; the SDK counts %d calls", where, id,
					len(l.Costs), len(l.Latencies), len(l.Usages), n)
			}
		}
	}
	check("ConversationInfo", info.Stats)
	if info.Leaf != branchedLeaf {
		t.Errorf("leaf_event_id %s, want %s", info.Leaf, branchedLeaf)
	}
	ws := dial(t, url, convID, "", nil)
	ws.auth(testKey)
	snap := ws.next()
	u, ok := snap.Body.(*model.StateUpdate)
	if !ok || !u.FullState {
		t.Fatalf("first frame is not a snapshot: %.200s", snap.Raw)
	}
	var v struct {
		Value struct {
			Stats json.RawMessage `json:"stats"`
		} `json:"value"`
	}
	if err := json.Unmarshal(snap.Raw, &v); err != nil {
		t.Fatal(err)
	}
	check("full_state", v.Value.Stats)
}

// TestStatsListsStandAsOfTheUpdate: a stats update sent mid-run is
// reported with the lists as they stood then, the prefix of the base's
// whose token usages add up to its accumulated usage.
func TestStatsListsStandAsOfTheUpdate(t *testing.T) {
	base := decodeBase(t, gen.BaseState(branchedOpts))
	lists := baseCallLists(base)
	checked := 0
	for _, ev := range testevents.GeneratedWith(t, branchedOpts) {
		u, ok := ev.Body.(*model.StateUpdate)
		if !ok || u.Key != "stats" || checked > 200 {
			continue
		}
		full := statsLists(t, withCallLists(stateValue(ev.Raw), lists))
		for id, m := range u.Stats.UsageToMetrics {
			var prompt int64
			for _, raw := range full[id].Usages {
				var tu struct {
					Prompt int64 `json:"prompt_tokens"`
				}
				if err := json.Unmarshal(raw, &tu); err != nil {
					t.Fatal(err)
				}
				prompt += tu.Prompt
			}
			n := len(full[id].Usages)
			if prompt != m.Accumulated.Prompt || n == 0 || len(full[id].Costs) != n || len(full[id].Latencies) != n {
				t.Fatalf("update %s: %s lists of %d calls add up to %d prompt tokens, the update says %d", ev.ID, id, n, prompt, m.Accumulated.Prompt)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no stats update checked")
	}
}

// TestNavigateAnswersConversationInfo: upstream's navigate returns the
// ConversationInfo with the new leaf_event_id (conversation_router.py,
// navigate_conversation), and 404 "Unknown event_id: …" for an event the
// conversation does not hold.
func TestNavigateAnswersConversationInfo(t *testing.T) {
	evs := basicRun(t)
	s, url := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	nav := url + "/api/conversations/" + convID + "/navigate"
	var info map[string]json.RawMessage
	if code := post(t, nav, testKey, fmt.Sprintf(`{"event_id":%q}`, evs[3].ID), &info); code != http.StatusOK {
		t.Fatalf("HTTP %d", code)
	}
	checkConversationInfo(t, "navigate", info)
	if string(info["leaf_event_id"]) != string(mustJSON(evs[3].ID)) || string(info["id"]) != string(mustJSON(convID)) {
		t.Errorf("navigate answered leaf %s id %s", info["leaf_event_id"], info["id"])
	}
	if code := post(t, nav, testKey, `{"event_id":null}`, &info); code != http.StatusOK || string(info["leaf_event_id"]) != "null" {
		t.Errorf("to none: HTTP %d, leaf %s", code, info["leaf_event_id"])
	}
	if code, body := doBody(t, http.MethodPost, nav, testKey, `{"event_id":"nope"}`); code != http.StatusNotFound ||
		string(body) != `{"detail":"Unknown event_id: nope"}` {
		t.Errorf("unknown event: HTTP %d %s, want 404", code, body)
	}
	fork := url + "/api/conversations/" + convID + "/fork"
	if code, body := doBody(t, http.MethodPost, fork, testKey, `{"from_event_id":"nope"}`); code != http.StatusNotFound ||
		string(body) != `{"detail":"Unknown from_event_id: nope"}` {
		t.Errorf("fork from an unknown event: HTTP %d %s, want 404", code, body)
	}
}

// doBody performs a request with the test key and returns the status and
// the body as sent.
func doBody(t *testing.T, method, url, key, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-Session-API-Key", key)
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
	return resp.StatusCode, data
}

// TestWholeForkCopiesEveryBranch: a fork without from_event_id copies the
// whole conversation, every event of every branch, keeps the source's
// HEAD and names no event (LocalConversation.fork; StoredConversation's
// forked_from_event_id is None for whole-conversation forks).
func TestWholeForkCopiesEveryBranch(t *testing.T) {
	_, url, _, _ := serveBranched(t)
	var info struct {
		ID        string          `json:"id"`
		Leaf      *string         `json:"leaf_event_id"`
		FromEvent json.RawMessage `json:"forked_from_event_id"`
		FromConv  *string         `json:"forked_from_conversation_id"`
		Status    string          `json:"execution_status"`
	}
	if code := post(t, url+"/api/conversations/"+convID+"/fork", testKey, `{}`, &info); code != http.StatusCreated {
		t.Fatalf("fork: HTTP %d", code)
	}
	if info.Leaf == nil || *info.Leaf != branchedLeaf || string(info.FromEvent) != "null" || info.FromConv == nil ||
		*info.FromConv != convID || info.Status != model.StatusIdle {
		t.Errorf("fork: leaf %v, forked from %v at %s, status %s", info.Leaf, info.FromConv, info.FromEvent, info.Status)
	}
	src, fork := restEventsOf(t, url, convID), restEventsOf(t, url, info.ID)
	if len(fork) != len(src) || len(src) < branchedOpts.Events {
		t.Fatalf("the fork holds %d events, the source %d", len(fork), len(src))
	}
	for i := range src {
		if fork[i].ID != src[i].ID {
			t.Fatalf("event %d of the fork is %s, the source's %s", i, fork[i].ID, src[i].ID)
		}
	}
}

// TestForkTitleIsATag: a fork's title is also its tags.title, beside the
// tags asked for (LocalConversation.fork: "Copy title via tags").
func TestForkTitleIsATag(t *testing.T) {
	evs := basicRun(t)
	s, url := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	for _, tc := range []struct{ body, tags, title string }{
		{`{"title":"retry the echo","tags":{"team":"core"}}`, `{"team":"core","title":"retry the echo"}`, `"retry the echo"`},
		{fmt.Sprintf(`{"from_event_id":%q,"title":"at the action"}`, evs[3].ID), `{"title":"at the action"}`, `"at the action"`},
		{`{"tags":{"team":"core"}}`, `{"team":"core"}`, ``},
	} {
		var info map[string]json.RawMessage
		if code := post(t, url+"/api/conversations/"+convID+"/fork", testKey, tc.body, &info); code != http.StatusCreated {
			t.Fatalf("%s: HTTP %d", tc.body, code)
		}
		if string(info["tags"]) != tc.tags || (tc.title != "" && string(info["title"]) != tc.title) {
			t.Errorf("%s: tags %s title %s", tc.body, info["tags"], info["title"])
		}
		var again map[string]json.RawMessage
		get(t, url+"/api/conversations/"+jsonString(t, info["id"]), testKey, &again)
		if string(again["tags"]) != tc.tags {
			t.Errorf("%s: GET says tags %s", tc.body, again["tags"])
		}
	}
}

func jsonString(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBatchGetEvents: GET /{id}/events answers one event or null per id of
// its JSON body, in order (event_router.py, batch_get_conversation_events,
// whose `event_ids: list[str]` FastAPI reads from the body).
func TestBatchGetEvents(t *testing.T) {
	evs := basicRun(t)
	s, url := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	batch := eventsURL(url, convID, "")
	var got []json.RawMessage
	body := fmt.Sprintf(`[%q,"nope",%q]`, evs[3].ID, evs[1].ID)
	if code := do(t, http.MethodGet, batch, testKey, body, &got); code != http.StatusOK {
		t.Fatalf("HTTP %d", code)
	}
	if len(got) != 3 || !rawEqual(got[0], evs[3].Raw) || string(got[1]) != "null" || !rawEqual(got[2], evs[1].Raw) {
		t.Errorf("batch answered %d items: %.300s", len(got), got)
	}
	if code := do(t, http.MethodGet, batch, testKey, `[]`, &got); code != http.StatusOK || len(got) != 0 {
		t.Errorf("no ids: HTTP %d, %d items", code, len(got))
	}
	for name, b := range map[string]string{"no body": ``, "not a list": `{"event_ids":["x"]}`, "not strings": `[1]`} {
		if code := do(t, http.MethodGet, batch, testKey, b, nil); code != http.StatusUnprocessableEntity {
			t.Errorf("%s: HTTP %d, want 422", name, code)
		}
	}
	if code := do(t, http.MethodGet, eventsURL(url, otherID, ""), testKey, `[]`, nil); code != http.StatusNotFound {
		t.Errorf("no conversation: HTTP %d, want 404", code)
	}
	if code := do(t, http.MethodGet, batch, "", `[]`, nil); code != http.StatusUnauthorized {
		t.Errorf("without the key: HTTP %d, want 401", code)
	}
}
