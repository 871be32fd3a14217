package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"unicode/utf8"

	"ohwatch/gen"
	"ohwatch/internal/testevents"
	"ohwatch/model"
)

func TestWithParentID(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"after source", `{"id":"a","timestamp":"t","source":"agent","kind":"X"}`,
			`{"id":"a","timestamp":"t","source":"agent","parent_id":"p","kind":"X"}`},
		{"replaces a value", `{"id":"a","source":"agent","parent_id":"old","kind":"X"}`,
			`{"id":"a","source":"agent","parent_id":"p","kind":"X"}`},
		{"replaces null", `{"id":"a","parent_id": null ,"kind":"X"}`,
			`{"id":"a","parent_id": "p" ,"kind":"X"}`},
		{"first without source", `{"id":"a","kind":"X"}`,
			`{"parent_id":"p","id":"a","kind":"X"}`},
		{"nested members untouched", `{"id":"a","source":"user","llm_message":{"parent_id":"deep","source":"x"},"kind":"X"}`,
			`{"id":"a","source":"user","parent_id":"p","llm_message":{"parent_id":"deep","source":"x"},"kind":"X"}`},
		{"spaced", "{ \"source\" : \"agent\" ,\n \"kind\":\"X\"}",
			"{ \"source\" : \"agent\",\"parent_id\":\"p\" ,\n \"kind\":\"X\"}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := withParentID([]byte(tc.in), "p")
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	for _, bad := range []string{``, `[]`, `{"id":`, `"x"`} {
		if _, err := withParentID([]byte(bad), "p"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func FuzzWithParentID(f *testing.F) {
	f.Add([]byte(`{"id":"a","source":"agent","kind":"X"}`), "p")
	f.Add([]byte(`{"parent_id":null}`), "__root__")
	f.Add([]byte(`{"a":{"parent_id":1},"source":"\"}"}`), "q\"")
	f.Fuzz(func(t *testing.T, raw []byte, parent string) {
		if !utf8.ValidString(parent) {
			return // event ids are text; JSON would carry U+FFFD
		}
		out, err := withParentID(raw, parent)
		if err != nil {
			return
		}
		var got, in map[string]json.RawMessage
		if json.Unmarshal(out, &got) != nil {
			t.Fatalf("not JSON: %s from %s", out, raw)
		}
		if json.Unmarshal(raw, &in) != nil {
			return // a duplicate-free object decodes; others need not
		}
		var p string
		if json.Unmarshal(got["parent_id"], &p) != nil || p != parent {
			t.Fatalf("parent_id %s, want %q", got["parent_id"], parent)
		}
		for k, v := range in {
			if k != "parent_id" && string(got[k]) != string(v) {
				t.Fatalf("member %s changed: %s → %s", k, v, got[k])
			}
		}
	})
}

// effectiveParents is each tree event's parent as a client infers it:
// parent_id, or the tree event before it in the log.
func effectiveParents(evs []model.Event) map[string]string {
	out := map[string]string{}
	last := ""
	for _, ev := range evs {
		if !treeEvent(ev) {
			continue
		}
		p := ev.ParentID
		if p == "" {
			p = last
		}
		out[ev.ID] = p
		last = ev.ID
	}
	return out
}

func TestLinearRecordingsGoOutAsRecorded(t *testing.T) {
	for _, name := range []string{"simple_echo_hello_world", "confirmation_mode", "creating_agent_plan"} {
		t.Run(name, func(t *testing.T) {
			evs := testevents.Twin(t, name)
			s, url := start(t, Options{}, map[string][]model.Event{convID: evs})
			waitPlayed(t, s)
			served := recordedOnly(t, rawsOf(restEventsOf(t, url, convID)), evs)
			var want [][]byte
			for _, ev := range evs {
				if model.Persisted(ev) {
					want = append(want, ev.Raw)
				}
			}
			if len(served) != len(want) {
				t.Fatalf("%d recorded events served, want %d", len(served), len(want))
			}
			for i := range want {
				if !rawEqual(served[i], want[i]) {
					t.Fatalf("event %d changed:\n%s\n%s", i, served[i], want[i])
				}
			}
			var info struct {
				Leaf string `json:"leaf_event_id"`
			}
			get(t, url+"/api/conversations/"+convID, testKey, &info)
			last := ""
			for _, ev := range evs {
				if treeEvent(ev) {
					last = ev.ID
				}
			}
			if info.Leaf != last {
				t.Errorf("leaf_event_id %q, want the last tree event %q", info.Leaf, last)
			}
		})
	}
}

func TestRecordedBranchesKeepTheirParents(t *testing.T) {
	r := newRecording(t)
	a := r.userMessage("first")
	b := r.agentMessage("one way")
	c := r.add("MessageEvent", "agent", fmt.Sprintf(`"parent_id":%q,"llm_message":{"role":"assistant","content":[{"type":"text","text":"another way"}]},"activated_skills":[],"extended_content":[]`, a))
	s, url := start(t, Options{Key: testKey}, map[string][]model.Event{convID: r.evs})
	waitPlayed(t, s)
	got := restEventsOf(t, url, convID)
	for i, raw := range recordedOnly(t, rawsOf(got), r.evs) {
		if !rawEqual(raw, r.evs[i].Raw) {
			t.Fatalf("event %d changed: %s", i, raw)
		}
	}
	parents := effectiveParents(got)
	if parents[b] != a || parents[c] != a {
		t.Errorf("parents %v: both replies should hang from %s", parents, a)
	}
	var info struct {
		Leaf string `json:"leaf_event_id"`
	}
	get(t, url+"/api/conversations/"+convID, testKey, &info)
	if info.Leaf != c {
		t.Errorf("leaf %q, want %q", info.Leaf, c)
	}
}

func TestNavigateMovesHead(t *testing.T) {
	evs := basicRun(t)
	s, url := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	ws := dial(t, url, convID, "", http.Header{"X-Session-API-Key": {testKey}})
	ws.next() // the subscribe snapshot
	user := evs[1].ID
	if code := post(t, url+"/api/conversations/"+convID+"/navigate", testKey, fmt.Sprintf(`{"event_id":%q}`, user), nil); code != http.StatusOK {
		t.Fatalf("navigate: HTTP %d", code)
	}
	snap := ws.next()
	var v struct {
		Value struct {
			Leaf string `json:"leaf_event_id"`
		} `json:"value"`
	}
	if ok, _ := isFullState(snap); !ok || json.Unmarshal(snap.Raw, &v) != nil || v.Value.Leaf != user {
		t.Fatalf("after navigate the socket got %s, want a snapshot with leaf_event_id %s", snap.Raw, user)
	}
	var info struct {
		Leaf string `json:"leaf_event_id"`
	}
	get(t, url+"/api/conversations/"+convID, testKey, &info)
	if info.Leaf != user {
		t.Errorf("ConversationInfo leaf_event_id %q, want %q", info.Leaf, user)
	}

	// The next event hangs from the new HEAD, and says so.
	if code := post(t, eventsURL(url, convID, ""), testKey, `{"role":"user","content":[{"type":"text","text":"try again"}]}`, nil); code != http.StatusOK {
		t.Fatalf("send: HTTP %d", code)
	}
	msg := ws.next()
	if msg.Kind != "MessageEvent" || msg.Source != "user" || msg.ParentID != user {
		t.Fatalf("after the message the socket got %s, want a user message with parent_id %s", msg.Raw, user)
	}
	all := restEventsOf(t, url, convID)
	if parents := effectiveParents(all); parents[msg.ID] != user {
		t.Errorf("over REST the message hangs from %q", parents[msg.ID])
	}
	get(t, url+"/api/conversations/"+convID, testKey, &info)
	if info.Leaf != msg.ID {
		t.Errorf("leaf %q after the message, want it", info.Leaf)
	}

	// To none: the next event is a new root.
	post(t, url+"/api/conversations/"+convID+"/navigate", testKey, `{"event_id":null}`, nil)
	ws.next()
	post(t, eventsURL(url, convID, ""), testKey, `{"content":[{"type":"text","text":"from scratch"}]}`, nil)
	if root := ws.next(); root.ParentID != rootParent {
		t.Errorf("after navigating to none the message has parent_id %q", root.ParentID)
	}
}

func TestNavigateAnswers(t *testing.T) {
	evs := basicRun(t)
	s, url := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	nav := url + "/api/conversations/" + convID + "/navigate"
	for _, tc := range []struct {
		name, url, body string
		want            int
	}{
		{"a tree event", nav, fmt.Sprintf(`{"event_id":%q}`, evs[3].ID), http.StatusOK},
		// Upstream checks `event_id in events`: any event of the log.
		{"a state update", nav, fmt.Sprintf(`{"event_id":%q}`, evs[2].ID), http.StatusOK},
		{"unknown", nav, `{"event_id":"nope"}`, http.StatusNotFound},
		{"no event_id", nav, `{}`, http.StatusUnprocessableEntity},
		{"not JSON", nav, `event`, http.StatusUnprocessableEntity},
		{"no conversation", url + "/api/conversations/" + otherID + "/navigate", `{"event_id":null}`, http.StatusNotFound},
	} {
		if got := post(t, tc.url, testKey, tc.body, nil); got != tc.want {
			t.Errorf("%s: HTTP %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := post(t, nav, "", `{"event_id":null}`, nil); got != http.StatusUnauthorized {
		t.Errorf("without the key: HTTP %d", got)
	}
	s.SetFaults(Faults{NoTree: true})
	if got := post(t, nav, testKey, fmt.Sprintf(`{"event_id":%q}`, evs[3].ID), nil); got != http.StatusNotFound {
		t.Errorf("no-tree server: HTTP %d, want 404", got)
	}
}

// TestNavigateMidReplay moves HEAD while the replay holds at a
// confirmation: the recording goes on from the new HEAD, and its next event
// says so with parent_id while the events after it follow it as recorded.
func TestNavigateMidReplay(t *testing.T) {
	evs := testevents.Twin(t, "confirmation_mode")
	url, ws := heldAtConfirmation(t, nil, evs, nil)
	target := evs[1].ID
	if code := post(t, url+"/api/conversations/"+convID+"/navigate", "", fmt.Sprintf(`{"event_id":%q}`, target), nil); code != http.StatusOK {
		t.Fatalf("navigate: HTTP %d", code)
	}
	ws.next() // the snapshot
	if code := post(t, eventsURL(url, convID, "/respond_to_confirmation"), "", `{"accept":true}`, nil); code != http.StatusOK {
		t.Fatalf("respond: HTTP %d", code)
	}
	var tree []model.Event
	for len(tree) < 2 {
		ev := ws.next()
		if treeEvent(ev) {
			tree = append(tree, ev)
		}
	}
	if tree[0].ParentID != target {
		t.Errorf("the first event after navigate has parent_id %q, want %q", tree[0].ParentID, target)
	}
	if tree[1].ParentID != "" {
		t.Errorf("the one after it carries parent_id %q; it follows as recorded", tree[1].ParentID)
	}
}

const otherID = "11111111-2222-4333-8444-555555555555"

// restEventsOf is every persisted event of conversation id over REST.
func restEventsOf(t *testing.T, url, id string) []model.Event {
	t.Helper()
	var out []model.Event
	eachPage(t, eventsURL(url, id, "/search?limit=100"), testKey, 1000, func(p page, _ string) {
		for _, raw := range p.Items {
			ev, err := model.Decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, ev)
		}
	})
	return out
}

func rawsOf(evs []model.Event) [][]byte {
	out := make([][]byte, len(evs))
	for i, ev := range evs {
		out[i] = ev.Raw
	}
	return out
}

// TestNavigatedRecordingGoesOutAsRecorded serves a generated conversation
// that was navigated back twice: every event goes out byte for byte (the
// recording names its own branches) and HEAD ends where the recording's
// last tree event is.
func TestNavigatedRecordingGoesOutAsRecorded(t *testing.T) {
	var evs []model.Event
	for raw := range gen.Events(gen.Options{Events: 400, Seed: 5, Branches: 2}) {
		ev, err := model.Decode(raw)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
	s, url := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	got := recordedOnly(t, rawsOf(restEventsOf(t, url, convID)), evs)
	if len(got) != len(evs) {
		t.Fatalf("%d of %d events served", len(got), len(evs))
	}
	for i := range evs {
		if !rawEqual(got[i], evs[i].Raw) {
			t.Fatalf("event %d changed:\n%s\n%s", i, got[i], evs[i].Raw)
		}
	}
	last, navigations := "", 0
	for _, ev := range evs {
		if treeEvent(ev) {
			if last != "" && ev.ParentID != "" && ev.ParentID != last {
				navigations++
			}
			last = ev.ID
		}
	}
	if navigations == 0 {
		t.Fatal("the generated recording was never navigated")
	}
	var info struct {
		Leaf string `json:"leaf_event_id"`
	}
	get(t, url+"/api/conversations/"+convID, testKey, &info)
	if info.Leaf != last {
		t.Errorf("leaf %q, want %q", info.Leaf, last)
	}
}
