package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"ohwatch/internal/testevents"
	"ohwatch/model"
)

// forkInfo is the part of a fork's ConversationInfo the tests read.
type forkInfo struct {
	ID         string          `json:"id"`
	Title      *string         `json:"title"`
	Status     string          `json:"execution_status"`
	Leaf       *string         `json:"leaf_event_id"`
	FromConv   *string         `json:"forked_from_conversation_id"`
	FromEvent  *string         `json:"forked_from_event_id"`
	Stats      json.RawMessage `json:"stats"`
	CreatedAt  string          `json:"created_at"`
	Unexpected json.RawMessage `json:"forked_from"`
}

func forkOf(t *testing.T, url, id, body string) (forkInfo, int) {
	t.Helper()
	var info forkInfo
	code := post(t, url+"/api/conversations/"+id+"/fork", testKey, body, &info)
	return info, code
}

func TestForkFromAnEvent(t *testing.T) {
	evs := basicRun(t) // system, user, running, action, observation, reply, finished
	s, url := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	action := evs[3]
	info, code := forkOf(t, url, convID, fmt.Sprintf(`{"from_event_id":%q,"title":"retry the echo"}`, action.ID))
	if code != http.StatusCreated {
		t.Fatalf("fork: HTTP %d", code)
	}
	fork := model.NormalizeConversationID(info.ID)
	switch {
	case fork == "" || fork == model.NormalizeConversationID(convID):
		t.Fatalf("fork id %q", info.ID)
	case info.FromConv == nil || *info.FromConv != convID:
		t.Errorf("forked_from_conversation_id %v, want %s", info.FromConv, convID)
	case info.FromEvent == nil || *info.FromEvent != action.ID:
		t.Errorf("forked_from_event_id %v", info.FromEvent)
	case info.Leaf == nil || *info.Leaf != action.ID:
		t.Errorf("leaf_event_id %v, want the fork point", info.Leaf)
	case info.Status != model.StatusIdle:
		t.Errorf("a fork starts %s, want idle", info.Status)
	case info.Title == nil || *info.Title != "retry the echo":
		t.Errorf("title %v", info.Title)
	case string(info.Stats) != string(emptyStats):
		t.Errorf("reset_metrics (the default) left stats %s", info.Stats)
	}

	// The fork holds the branch up to the fork point, byte for byte.
	copied := restEventsOf(t, url, fork)
	want := []model.Event{evs[0], evs[1], action}
	if len(copied) != len(want) {
		t.Fatalf("the fork has %d events, want the branch's %d", len(copied), len(want))
	}
	for i := range want {
		if !rawEqual(copied[i].Raw, want[i].Raw) {
			t.Fatalf("copied event %d: %s", i, copied[i].Raw)
		}
	}
	// It is listed, newest first, and the source is as it was.
	var list page
	get(t, url+"/api/conversations/search", testKey, &list)
	var first struct {
		ID string `json:"id"`
	}
	if len(list.Items) != 2 || json.Unmarshal(list.Items[0], &first) != nil || model.NormalizeConversationID(first.ID) != fork {
		t.Errorf("the search lists %d conversations, the fork not first", len(list.Items))
	}
	if n := eventCount(t, url, convID); n != len(evs) {
		t.Errorf("the source now has %d events", n)
	}

	// A message with run: the fork goes on from the fork point with the
	// rest of the recording, under its own ids.
	ws := dial(t, url, fork, "", http.Header{"X-Session-API-Key": {testKey}})
	ws.next()
	if code := post(t, eventsURL(url, fork, ""), testKey, `{"role":"user","content":[{"type":"text","text":"use printf"}],"run":true}`, nil); code != http.StatusOK {
		t.Fatalf("send: HTTP %d", code)
	}
	got := ws.until(func(ev model.Event) bool { return statusOf(ev) == model.StatusFinished })
	var tree []model.Event
	statuses := []string{}
	for _, ev := range got {
		if treeEvent(ev) {
			tree = append(tree, ev)
		}
		if st := statusOf(ev); st != "" {
			statuses = append(statuses, st)
		}
	}
	if len(tree) != 3 || tree[0].Kind != "MessageEvent" || tree[0].Source != "user" || tree[0].ParentID != "" {
		t.Fatalf("after the message the fork sent %d tree events, first %s", len(tree), tree[0].Raw)
	}
	obs, ok := tree[1].Body.(*model.Observation)
	switch {
	case !ok:
		t.Fatalf("the continuation does not go on with the observation: %s", tree[1].Raw)
	case tree[1].ID == evs[4].ID || tree[2].ID == evs[5].ID:
		t.Error("the continuation kept the recorded ids")
	case obs.ActionID != action.ID:
		t.Errorf("the observation answers %s, want the copied action %s", obs.ActionID, action.ID)
	}
	if statuses[0] != model.StatusRunning {
		t.Errorf("statuses %v: the run did not start with running", statuses)
	}
	all := restEventsOf(t, url, fork)
	parents := effectiveParents(all)
	if parents[tree[0].ID] != action.ID || parents[tree[1].ID] != tree[0].ID {
		t.Errorf("parents %v: the message should hang from the fork point, the rest follow it", parents)
	}
	for _, ev := range all[len(want):] {
		if !ev.Time.IsZero() && !ev.Time.After(action.Time) {
			t.Errorf("fork event %s stamped %s, before the fork point", ev.ID, ev.Time)
		}
	}
}

func TestForkAnswers(t *testing.T) {
	evs := basicRun(t)
	s, url := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	for _, tc := range []struct {
		name, id, body string
		want           int
	}{
		{"the whole branch, no body", convID, ``, http.StatusCreated},
		{"an id asked for", convID, fmt.Sprintf(`{"id":%q}`, otherID), http.StatusCreated},
		{"that id again", convID, fmt.Sprintf(`{"id":%q}`, otherID), http.StatusConflict},
		{"unknown event", convID, `{"from_event_id":"nope"}`, http.StatusNotFound},
		{"empty event id", convID, `{"from_event_id":""}`, http.StatusNotFound},
		// Upstream checks `from_event_id in events`: any event of the log.
		{"a state update", convID, fmt.Sprintf(`{"from_event_id":%q}`, evs[2].ID), http.StatusCreated},
		{"no source", "99999999-2222-4333-8444-555555555555", `{}`, http.StatusNotFound},
		{"not JSON", convID, `{`, http.StatusUnprocessableEntity},
		{"a fork of a fork", otherID, `{}`, http.StatusCreated},
	} {
		if _, got := forkOf(t, url, tc.id, tc.body); got != tc.want {
			t.Errorf("%s: HTTP %d, want %d", tc.name, got, tc.want)
		}
	}
	info, _ := forkOf(t, url, convID, `{"reset_metrics":false}`)
	if info.Leaf == nil || *info.Leaf != evs[5].ID || info.FromEvent != nil {
		t.Errorf("a fork without from_event_id keeps HEAD and names no event: leaf %v, from %v", info.Leaf, info.FromEvent)
	}
	s.SetFaults(Faults{NoTree: true})
	if _, got := forkOf(t, url, convID, `{}`); got != http.StatusNotFound {
		t.Errorf("no-tree server: HTTP %d, want 404", got)
	}
}

// TestForkRealRecordings forks real recordings at tree events along the
// way and runs the forks: each copies exactly the recorded prefix and goes
// on with the recorded rest under new ids, one linear branch through the
// fork point, every id unique.
func TestForkRealRecordings(t *testing.T) {
	for _, name := range []string{"simple_echo_hello_world", "creating_agent_plan"} {
		t.Run(name, func(t *testing.T) {
			evs := testevents.Twin(t, name)
			s, url := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
			waitPlayed(t, s)
			var points []int
			for i, ev := range evs {
				if treeEvent(ev) {
					points = append(points, i)
				}
			}
			for _, at := range []int{points[0], points[len(points)/2], points[len(points)-2]} {
				info, code := forkOf(t, url, convID, fmt.Sprintf(`{"from_event_id":%q}`, evs[at].ID))
				if code != http.StatusCreated {
					t.Fatalf("fork at %d: HTTP %d", at, code)
				}
				if code := post(t, url+"/api/conversations/"+info.ID+"/run", testKey, "", nil); code != http.StatusOK {
					t.Fatalf("run: HTTP %d", code)
				}
				waitFor(t, "the fork's replay", func() bool { return s.conversation(info.ID).finished() })
				got := restEventsOf(t, url, info.ID)
				prefix := 0
				seen := map[string]bool{}
				for _, ev := range got {
					if seen[ev.ID] {
						t.Fatalf("id %s twice in the fork", ev.ID)
					}
					seen[ev.ID] = true
				}
				for i, ev := range evs[:at+1] {
					if treeEvent(ev) {
						if !rawEqual(got[prefix].Raw, evs[i].Raw) {
							t.Fatalf("copied event %d differs", prefix)
						}
						prefix++
					}
				}
				fork := model.NormalizeConversationID(info.ID)
				for _, ev := range evs[at+1:] {
					if model.Persisted(ev) && !seen[derivedUUID(fork+"/"+ev.ID)] {
						t.Fatalf("fork at %d: the recorded %s %s was not replayed under a new id", at, ev.Kind, ev.ID)
					}
				}
				parents := effectiveParents(got)
				for id, p := range parents {
					if p != "" && !seen[p] {
						t.Errorf("event %s hangs from %s, not in the fork", id, p)
					}
				}
			}
		})
	}
}

// TestForkAtTheEnd forks at the recording's last event: without
// Options.Continue the fork stays idle when run (nothing was recorded
// after); with it, the run emits what Continue made up.
func TestForkAtTheEnd(t *testing.T) {
	evs := basicRun(t)
	last := evs[5] // the agent's reply; the finished update after it is no step
	made := func(at time.Time) []model.Event {
		r := newRecording(t)
		r.start = at
		r.agentMessage("made up")
		r.status("finished")
		return r.evs
	}
	for _, tc := range []struct {
		name     string
		cont     func(time.Time) []model.Event
		wantLast string
	}{{"idle", nil, model.StatusIdle}, {"made up", made, model.StatusFinished}} {
		t.Run(tc.name, func(t *testing.T) {
			s, url := start(t, Options{Key: testKey, Continue: tc.cont}, map[string][]model.Event{convID: evs})
			waitPlayed(t, s)
			info, code := forkOf(t, url, convID, fmt.Sprintf(`{"from_event_id":%q}`, last.ID))
			if code != http.StatusCreated {
				t.Fatalf("fork: HTTP %d", code)
			}
			post(t, eventsURL(url, info.ID, ""), testKey, `{"content":[{"type":"text","text":"and then?"}],"run":true}`, nil)
			waitFor(t, "the fork's run", func() bool { return s.conversation(info.ID).finished() })
			got := restEventsOf(t, url, info.ID)
			var st forkInfo
			get(t, url+"/api/conversations/"+info.ID, testKey, &st)
			if st.Status != tc.wantLast {
				t.Errorf("the fork ends %s, want %s", st.Status, tc.wantLast)
			}
			reply := got[len(got)-1]
			if tc.cont != nil {
				reply = got[len(got)-2]
			}
			if tc.cont != nil && (reply.Kind != "MessageEvent" || reply.Source != "agent") {
				t.Errorf("the made-up run did not reply: %s", reply.Raw)
			}
			msg := got[len(evs)-2] // the copied branch (five events), then the message
			if msg.Kind != "MessageEvent" || msg.Source != "user" {
				t.Fatalf("no message after the copied branch: %s", msg.Raw)
			}
			if parents := effectiveParents(got); tc.cont != nil && parents[reply.ID] != msg.ID {
				t.Errorf("the reply hangs from %q, want the message %s", parents[reply.ID], msg.ID)
			}
		})
	}
}

// TestARunStartsWithItsStatus sets forks going at Speed 0, where the whole
// continuation comes out the moment the clock restarts: the "running" that
// /run restores must come before the continuation, never after its
// "finished". Many forks, because the wrong order needs the player to win
// a race.
func TestARunStartsWithItsStatus(t *testing.T) {
	evs := basicRun(t)
	s, url := start(t, Options{Key: testKey}, map[string][]model.Event{convID: evs})
	waitPlayed(t, s)
	for i := range 30 {
		info, code := forkOf(t, url, convID, fmt.Sprintf(`{"from_event_id":%q}`, evs[3].ID))
		if code != http.StatusCreated {
			t.Fatalf("fork %d: HTTP %d", i, code)
		}
		post(t, eventsURL(url, info.ID, ""), testKey, `{"content":[{"type":"text","text":"again"}],"run":true}`, nil)
		waitFor(t, "the fork's run", func() bool { return s.conversation(info.ID).finished() })
		var statuses []string
		for _, ev := range restEventsOf(t, url, info.ID) {
			if st := statusOf(ev); st != "" {
				statuses = append(statuses, st)
			}
		}
		// The copied branch's running, the restored running, the
		// continuation's finished.
		if n := len(statuses); n < 2 || statuses[n-2] != model.StatusRunning || statuses[n-1] != model.StatusFinished {
			t.Fatalf("fork %d: statuses %v, want the run to start running and end finished", i, statuses)
		}
	}
}
