package realserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// The differential check of serve: a conversation recorded from the real
// server is served by `ohwatch serve`, and both are asked the same
// requests. What differs, field by field (times aside), is either a known
// difference with its reason (knownDifferences, the README's table) or a
// failure.

// knownDifference is a kind of difference the README's table lists.
type knownDifference struct {
	name   string
	reason string
	// matches says whether a difference is of this kind.
	matches func(d difference) bool
}

// conversationInfoRoutes answer ConversationInfo (one, a list, a page).
var conversationInfoRoutes = []string{"GET /api/conversations/{id}", "GET /api/conversations?ids=", "GET /api/conversations/search"}

// knownDifferences are what serve does not reproduce, and why. A kind
// serve stops making is reported (t.Log), not failed on.
var knownDifferences = []knownDifference{
	{
		name:   "null fields",
		reason: "the SDK writes its files without null fields, and serve answers from the files: a field the real server sends as null is absent",
		matches: func(d difference) bool {
			return strings.HasPrefix(d.what, "missing in serve (real null)")
		},
	},
	{
		name: "ConversationInfo",
		reason: "the title the server generates with an LLM call is in no event, so a recording's title is its first message; " +
			"the REST answer has the LLM key as null where the recorded snapshot has it masked (\"**********\")",
		matches: func(d difference) bool {
			for _, r := range conversationInfoRoutes {
				if strings.HasPrefix(d.where, r) && (d.where == r || !strings.HasPrefix(d.where, r+"/")) {
					return true
				}
			}
			return false
		},
	},
	{
		name:   "snapshot value",
		reason: "the full_state snapshot's value is the recorded base_state.json: the same fields as serve's ConversationInfo",
		matches: func(d difference) bool {
			return d.where == "socket" && strings.HasPrefix(d.path, "full_state.value")
		},
	},
}

// TestServeDifferential records a conversation from the real server, serves
// the recording, and compares the answers to the same requests.
func TestServeDifferential(t *testing.T) {
	t.Parallel()
	id := shared.create(t, convSpec{message: "Plan, then finish.", tracker: true})
	shared.waitStatus(t, id, "finished")
	rec := filepath.Join(t.TempDir(), "rec")
	if r := ohwatch(t, watchArgs(shared, id, "--record", rec)...); r.code != 0 {
		t.Fatalf("record: exit %d: %s", r.code, r.stderr)
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	srv := start(t, "serve", rec, "--addr", "127.0.0.1:"+port, "--speed", "0")
	srv.waitLine("serving 1 conversation")
	served := &server{port: port}

	evs := shared.events(t, id)
	routes := []string{
		"/api/conversations/{id}",
		"/api/conversations?ids={id}",
		"/api/conversations/{id}/events/search?limit=100",
		"/api/conversations/{id}/events/search?limit=5",
		"/api/conversations/{id}/events/search?limit=100&kind=ActionEvent",
		"/api/conversations/{id}/events/count",
		"/api/conversations/{id}/events/{event}",
		"/api/conversations/search?limit=100",
	}
	var diffs []difference
	for _, route := range routes {
		where := "GET " + route
		url := strings.NewReplacer("{id}", id, "{event}", evs[len(evs)/2].ID).Replace(route)
		a, sa := getAny(t, shared, url)
		b, sb := getAny(t, served, url)
		if sa != sb {
			diffs = append(diffs, difference{where, "status", fmt.Sprintf("real %d, serve %d", sa, sb)})
			continue
		}
		if route == "/api/conversations/search?limit=100" {
			a, b = onlyItem(a, id), onlyItem(b, id)
		}
		diffs = append(diffs, compare(where, "", a, b)...)
	}
	for _, route := range []string{"/api/conversations/{unknown}", "/api/conversations/{unknown}/events/search"} {
		url := strings.ReplaceAll(route, "{unknown}", "00000000-0000-4000-8000-000000000000")
		_, sa := getAny(t, shared, url)
		_, sb := getAny(t, served, url)
		if sa != sb {
			diffs = append(diffs, difference{"GET " + route, "status", fmt.Sprintf("real %d, serve %d", sa, sb)})
		}
	}
	diffs = append(diffs, compareSockets(t, id, shared, served)...)

	seen := map[string]int{}
	for _, d := range diffs {
		if k, ok := known(d); ok {
			seen[k.name]++
			continue
		}
		t.Errorf("serve differs from the real server: %s %s: %s", d.where, d.path, d.what)
	}
	for _, k := range knownDifferences {
		t.Logf("known difference %q: %d fields (%s)", k.name, seen[k.name], k.reason)
	}
}

// difference is one field that differs.
type difference struct {
	where, path, what string
}

func known(d difference) (knownDifference, bool) {
	for _, k := range knownDifferences {
		if k.matches(d) {
			return k, true
		}
	}
	return knownDifference{}, false
}

// getAny GETs route from s and decodes the JSON answer.
func getAny(t *testing.T, s *server, route string) (any, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url()+route, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Session-API-Key", serverKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("GET %s: %v: %s", route, err, raw)
		}
	}
	return v, resp.StatusCode
}

// onlyItem keeps, of a conversation search page, the item of conversation
// id: the real server lists every test's conversations.
func onlyItem(v any, id string) any {
	m, _ := v.(map[string]any)
	items, _ := m["items"].([]any)
	for _, it := range items {
		if im, _ := it.(map[string]any); im["id"] == id {
			return im
		}
	}
	return nil
}

// timeKeys are the fields compared by presence only: the times of an
// answer (when it was made, when the recording was served).
var timeKeys = map[string]bool{"timestamp": true, "created_at": true, "updated_at": true}

// compare lists the differences between a (the real server's) and b
// (serve's) below path.
func compare(where, path string, a, b any) []difference {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			return []difference{{where, path, fmt.Sprintf("real %s, serve %s", short(a), short(b))}}
		}
		var out []difference
		for _, k := range sortedKeys(av, bv) {
			x, inA := av[k]
			y, inB := bv[k]
			p := path + "." + k
			switch {
			case !inB:
				out = append(out, difference{where, p, "missing in serve (real " + short(x) + ")"})
			case !inA:
				out = append(out, difference{where, p, "only in serve (" + short(y) + ")"})
			case timeKeys[k]:
			default:
				out = append(out, compare(where, p, x, y)...)
			}
		}
		return out
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return []difference{{where, path, fmt.Sprintf("real %s, serve %s", short(a), short(b))}}
		}
		var out []difference
		for i := range av {
			out = append(out, compare(where, fmt.Sprintf("%s[%d]", path, i), av[i], bv[i])...)
		}
		return out
	}
	if fmt.Sprint(a) != fmt.Sprint(b) {
		return []difference{{where, path, fmt.Sprintf("real %s, serve %s", short(a), short(b))}}
	}
	return nil
}

func sortedKeys(a, b map[string]any) []string {
	seen := map[string]bool{}
	var keys []string
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}

// compareSockets reads each server's event socket (everything resent,
// then the snapshot) and compares the frame sequences: the same events in
// the same order, field by field, and the snapshot's fields.
func compareSockets(t *testing.T, id string, real, served *server) []difference {
	t.Helper()
	want := len(real.events(t, id))
	a := socketFrames(t, real, id, want)
	b := socketFrames(t, served, id, want)
	var out []difference
	if len(a) != len(b) {
		out = append(out, difference{"socket", "frames", fmt.Sprintf("real %d frames %v, serve %d frames %v", len(a), kinds(a), len(b), kinds(b))})
	}
	for i := range min(len(a), len(b)) {
		x, y := a[i], b[i]
		if x["key"] == "full_state" && y["key"] == "full_state" {
			out = append(out, compare("socket", "full_state.value", x["value"], y["value"])...)
			delete(x, "value")
			delete(y, "value")
			delete(x, "id") // a snapshot's id is made per socket
			delete(y, "id")
		}
		out = append(out, compare("socket", fmt.Sprintf("frame[%d]", i), x, y)...)
	}
	return out
}

// socketFrames reads a socket opened with resend_mode=all until it has sent
// want events and a full_state snapshot (in whichever order).
func socketFrames(t *testing.T, s *server, id string, want int) []map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	url := "ws://127.0.0.1:" + s.port + "/sockets/events/" + id + "?resend_mode=all"
	conn, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatalf("socket %s: %v", url, err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(64 << 20)
	auth, _ := json.Marshal(map[string]string{"type": "auth", "session_api_key": serverKey})
	if err := conn.Write(ctx, websocket.MessageText, auth); err != nil {
		t.Fatal(err)
	}
	var frames []map[string]any
	events, snapshot := 0, false
	for !snapshot || events < want {
		_, raw, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("socket %s after %d frames: %v", url, len(frames), err)
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("socket frame: %v: %s", err, raw)
		}
		frames = append(frames, m)
		if m["key"] == "full_state" {
			snapshot = true
			continue
		}
		events++
	}
	return frames
}

func kinds(frames []map[string]any) []string {
	var out []string
	for _, f := range frames {
		k, _ := f["kind"].(string)
		if key, ok := f["key"].(string); ok {
			k += "(" + key + ")"
		}
		out = append(out, k)
	}
	return out
}
