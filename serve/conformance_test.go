package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"ohwatch/gen"
	"ohwatch/model"
)

// The shapes of what the upstream agent-server's routes answer, field by
// field, from ../shared/docs/protocol.md and, where it lists no field, from
// the route models of openhands-agent-server 1.43.1 (models.py:
// _ConversationInfoBase, ConversationInfo, ConversationPage, EventPage,
// Success; server_details_router.py: ServerInfo, HealthStatus) and
// openhands-sdk (llm/utils/metrics.py: Metrics, Cost, ResponseLatency,
// TokenUsage; conversation/state.py: ConversationState).

// shape maps each field an object must have to the JSON kinds its value
// may take: string, number, bool, array, object, null, and the string
// forms uuid (dashed), time (ConversationInfo's: 6 fractional digits, Z)
// and status (an execution status).
type shape map[string]string

var conversationInfoShape = shape{
	"id": "uuid", "workspace": "object", "persistence_dir": "string|null", "max_iterations": "number",
	"stuck_detection": "bool", "execution_status": "status", "confirmation_policy": "object",
	"security_analyzer": "object|null", "activated_knowledge_skills": "array", "invoked_skills": "array",
	"blocked_actions": "object", "blocked_messages": "object", "last_user_message_id": "string|null",
	"leaf_event_id": "string|null", "stats": "object", "secret_registry": "object", "agent_state": "object",
	"hook_config": "object|null", "title": "string|null", "metrics": "object|null", "created_at": "time",
	"updated_at": "time", "forked_from_conversation_id": "uuid|null", "forked_from_event_id": "string|null",
	"parent_conversation_id": "uuid|null", "sub_conversation_ids": "array", "tags": "object",
	"current_model_id": "string|null", "available_models": "array", "supports_runtime_model_switch": "bool",
	"launched_agent_profile": "object|null", "agent": "object", "client_tools": "array",
}

// metricsShape is one usage of stats.usage_to_metrics as model_dump
// writes it (nothing excluded).
var metricsShape = shape{
	"model_name": "string", "accumulated_cost": "number", "max_budget_per_task": "number|null",
	"accumulated_token_usage": "object|null", "costs": "array", "response_latencies": "array", "token_usages": "array",
}

var costShape = shape{"model": "string", "cost": "number", "timestamp": "number"}
var latencyShape = shape{"model": "string", "latency": "number", "response_id": "string"}
var tokenUsageShape = shape{
	"model": "string", "prompt_tokens": "number", "completion_tokens": "number", "cache_read_tokens": "number",
	"cache_write_tokens": "number", "reasoning_tokens": "number", "context_window": "number",
	"per_turn_token": "number", "response_id": "string",
}

var serverInfoShape = shape{
	"uptime": "number", "idle_time": "number", "title": "string", "version": "string", "sdk_version": "string",
	"tools_version": "string", "workspace_version": "string", "build_git_sha": "string", "build_git_ref": "string",
	"python_version": "string", "usable_tools": "array", "runtime_idle_timeout_seconds": "number|null",
	"capabilities": "array", "max_foreground_terminal_timeout_seconds": "number|null", "docs": "string", "redoc": "string",
}

var pageShape = shape{"items": "array", "next_page_id": "string|null"}
var successShape = shape{"success": "bool"}
var statusShape = shape{"status": "string"}

// stateFields are ConversationState's fields: a full_state's value is its
// model_dump(mode="json", exclude_none=True) (ConversationStateUpdateEvent.
// from_conversation_state), so it holds no others and every one that is
// never None.
var stateFields = []string{"id", "agent", "workspace", "persistence_dir", "max_iterations", "stuck_detection",
	"execution_status", "confirmation_policy", "security_analyzer", "activated_knowledge_skills",
	"activated_path_rules", "invoked_skills", "blocked_actions", "blocked_messages", "last_user_message_id",
	"leaf_event_id", "head_is_empty", "stats", "secret_registry", "tags", "agent_state", "hook_config"}
var stateRequired = []string{"id", "agent", "workspace", "max_iterations", "stuck_detection", "execution_status",
	"confirmation_policy", "activated_knowledge_skills", "blocked_actions", "blocked_messages", "stats",
	"secret_registry", "tags", "agent_state"}

var (
	uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	timeRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$`)
)

// jsonKind is the JSON kind of raw.
func jsonKind(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "null":
		return "null"
	case s == "true" || s == "false":
		return "bool"
	case strings.HasPrefix(s, `"`):
		return "string"
	case strings.HasPrefix(s, "["):
		return "array"
	case strings.HasPrefix(s, "{"):
		return "object"
	}
	return "number"
}

// fits reports whether raw is one of the kinds allowed ("a|b").
func fits(raw json.RawMessage, allowed string) bool {
	k := jsonKind(raw)
	for _, a := range strings.Split(allowed, "|") {
		switch a {
		case "uuid", "time", "status":
			var s string
			if k != "string" || json.Unmarshal(raw, &s) != nil {
				continue
			}
			switch {
			case a == "uuid" && uuidRE.MatchString(s), a == "time" && timeRE.MatchString(s):
				return true
			case a == "status" && slices.Contains([]string{model.StatusIdle, model.StatusRunning, model.StatusPaused,
				model.StatusWaitingForConfirmation, model.StatusFinished, model.StatusError, model.StatusStuck,
				model.StatusDeleting}, s):
				return true
			}
		default:
			if k == a {
				return true
			}
		}
	}
	return false
}

// checkShape holds obj to sh: exactly its fields, each of an allowed kind.
func checkShape(t *testing.T, where string, obj map[string]json.RawMessage, sh shape) {
	t.Helper()
	for k, allowed := range sh {
		v, ok := obj[k]
		if !ok {
			t.Errorf("%s: no %q", where, k)
			continue
		}
		if !fits(v, allowed) {
			t.Errorf("%s: %q is %.80s, want %s", where, k, v, allowed)
		}
	}
	for k := range obj {
		if _, ok := sh[k]; !ok {
			t.Errorf("%s: %q is not a field of the route model", where, k)
		}
	}
}

func object(t *testing.T, where string, raw json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		t.Fatalf("%s: not an object: %.200s", where, raw)
	}
	return obj
}

func list(t *testing.T, where string, raw json.RawMessage) []json.RawMessage {
	t.Helper()
	var l []json.RawMessage
	if err := json.Unmarshal(raw, &l); err != nil || l == nil {
		t.Fatalf("%s: not a list: %.200s", where, raw)
	}
	return l
}

// checkStats holds a stats value to ConversationStats: usage_to_metrics
// alone, each usage a full Metrics whose lists hold Costs,
// ResponseLatencies and TokenUsages.
func checkStats(t *testing.T, where string, raw json.RawMessage) {
	t.Helper()
	st := object(t, where, raw)
	checkShape(t, where, st, shape{"usage_to_metrics": "object"})
	for id, m := range object(t, where, st["usage_to_metrics"]) {
		w := where + ".usage_to_metrics." + id
		mo := object(t, w, m)
		checkShape(t, w, mo, metricsShape)
		for field, sh := range map[string]shape{"costs": costShape, "response_latencies": latencyShape, "token_usages": tokenUsageShape} {
			for k, e := range list(t, w+"."+field, mo[field]) {
				if k > 2 {
					break // the rest are the same model
				}
				checkShape(t, fmt.Sprintf("%s.%s[%d]", w, field, k), object(t, w, e), sh)
			}
		}
		if acc := mo["accumulated_token_usage"]; jsonKind(acc) == "object" {
			checkShape(t, w+".accumulated_token_usage", object(t, w, acc), tokenUsageShape)
		}
	}
}

// checkConversationInfo holds a ConversationInfo to the route model.
func checkConversationInfo(t *testing.T, where string, info map[string]json.RawMessage) {
	t.Helper()
	checkShape(t, where, info, conversationInfoShape)
	if v, ok := info["stats"]; ok && jsonKind(v) == "object" {
		checkStats(t, where+".stats", v)
	}
	for k, v := range object(t, where+".tags", info["tags"]) {
		if jsonKind(v) != "string" {
			t.Errorf("%s: tag %q is %s, not a string", where, k, v)
		}
	}
	if kind := jsonKind(object(t, where+".agent", info["agent"])["kind"]); kind != "string" {
		t.Errorf("%s: agent without kind", where)
	}
}

// checkEvent holds an event to what every Event has.
func checkEvent(t *testing.T, where string, raw json.RawMessage) {
	t.Helper()
	ev := object(t, where, raw)
	for _, k := range []string{"id", "timestamp", "source", "kind"} {
		if jsonKind(ev[k]) != "string" {
			t.Errorf("%s: %q is %.60s, want a string", where, k, ev[k])
		}
	}
	if p, ok := ev["parent_id"]; ok && jsonKind(p) != "string" {
		t.Errorf("%s: parent_id %s", where, p)
	}
}

// conformanceRoutes are the routes the conformance test walks; a route
// serve answers must be among them (TestConformanceWalksEveryRoute).
var conformanceRoutes = []string{
	"GET /alive", "GET /health", "GET /ready", "GET /server_info", "GET /sockets/{socket}/{id}",
	"GET /api/conversations", "GET /api/conversations/search", "GET /api/conversations/count",
	"GET /api/conversations/{id}", "POST /api/conversations/{id}/pause", "POST /api/conversations/{id}/interrupt",
	"POST /api/conversations/{id}/run", "POST /api/conversations/{id}/fork", "POST /api/conversations/{id}/navigate",
	"POST /api/conversations/{id}/events", "GET /api/conversations/{id}/events",
	"GET /api/conversations/{id}/events/search", "GET /api/conversations/{id}/events/count",
	"GET /api/conversations/{id}/events/{event_id}", "POST /api/conversations/{id}/events/respond_to_confirmation",
	"POST /api/conversations/{id}/confirmation_policy", "POST /api/conversations/{id}/events/respond_to_ask_user",
	// Walked by TestDockerRoutes (runtime_test.go).
	"GET /api/conversations/{id}/runtime", "POST /api/conversations/{id}/switch_llm",
	"POST /api/conversations/{id}/switch_profile", "POST /api/conversations/{id}/credential-bindings",
}

// TestConformanceWalksEveryRoute keeps the conformance test whole: every
// route routes.go registers is one it walks.
func TestConformanceWalksEveryRoute(t *testing.T) {
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	var registered []string
	for _, m := range regexp.MustCompile(`HandleFunc\("([A-Z]+ /[^"]*)"`).FindAllStringSubmatch(string(src), -1) {
		registered = append(registered, m[1])
	}
	want := slices.Clone(conformanceRoutes)
	sort.Strings(registered)
	sort.Strings(want)
	if !slices.Equal(registered, want) {
		t.Errorf("routes.go registers\n%v\nthe conformance test walks\n%v", registered, want)
	}
}

// TestConformance walks every route serve implements on the branched
// generated conversation and holds each answer, field by field, to the
// upstream route model.
func TestConformance(t *testing.T) {
	_, url, _, evs := serveBranched(t)
	api := url + "/api/conversations"
	getJSON := func(route, u string, wantCode int) json.RawMessage {
		t.Helper()
		code, body := doBody(t, http.MethodGet, u, testKey, "")
		if code != wantCode {
			t.Fatalf("%s: HTTP %d %.200s", route, code, body)
		}
		return body
	}
	postJSON := func(route, u, body string, wantCode int) json.RawMessage {
		t.Helper()
		code, out := doBody(t, http.MethodPost, u, testKey, body)
		if code != wantCode {
			t.Fatalf("%s: HTTP %d %.200s", route, code, out)
		}
		return out
	}

	for path, status := range map[string]string{"/alive": "ok", "/health": "ok", "/ready": "ready"} {
		obj := object(t, path, getJSON(path, url+path, http.StatusOK))
		checkShape(t, "GET "+path, obj, statusShape)
		if string(obj["status"]) != `"`+status+`"` {
			t.Errorf("GET %s: status %s", path, obj["status"])
		}
	}
	checkShape(t, "GET /server_info", object(t, "server_info", getJSON("server_info", url+"/server_info", http.StatusOK)), serverInfoShape)

	checkConversationInfo(t, "GET /api/conversations/{id}", object(t, "get", getJSON("get", api+"/"+convID, http.StatusOK)))
	batch := list(t, "batch", getJSON("batch", api+"?ids="+convID+"&ids="+otherID, http.StatusOK))
	if len(batch) != 2 || jsonKind(batch[1]) != "null" {
		t.Fatalf("GET /api/conversations: %d items, the second %.20s", len(batch), batch[1])
	}
	checkConversationInfo(t, "GET /api/conversations[0]", object(t, "batch", batch[0]))
	search := object(t, "search", getJSON("search", api+"/search", http.StatusOK))
	checkShape(t, "GET /api/conversations/search", search, pageShape)
	for k, item := range list(t, "search items", search["items"]) {
		checkConversationInfo(t, fmt.Sprintf("search items[%d]", k), object(t, "item", item))
	}
	if jsonKind(getJSON("count", api+"/count", http.StatusOK)) != "number" {
		t.Error("GET /api/conversations/count: not a number")
	}

	events := api + "/" + convID + "/events"
	page := object(t, "events search", getJSON("events search", events+"/search?limit=5", http.StatusOK))
	checkShape(t, "GET /events/search", page, pageShape)
	for k, ev := range list(t, "events", page["items"]) {
		checkEvent(t, fmt.Sprintf("events/search items[%d]", k), ev)
	}
	if jsonKind(getJSON("events count", events+"/count", http.StatusOK)) != "number" {
		t.Error("GET /events/count: not a number")
	}
	checkEvent(t, "GET /events/{event_id}", getJSON("event", events+"/"+evs[3].ID, http.StatusOK))
	code, body := doBody(t, http.MethodGet, events, testKey, fmt.Sprintf(`[%q,"nope"]`, evs[3].ID))
	if got := list(t, "events batch", body); code != http.StatusOK || len(got) != 2 || jsonKind(got[1]) != "null" {
		t.Fatalf("GET /events (batch): HTTP %d %.100s", code, body)
	} else {
		checkEvent(t, "GET /events (batch)[0]", got[0])
	}

	nav := object(t, "navigate", postJSON("navigate", api+"/"+convID+"/navigate", fmt.Sprintf(`{"event_id":%q}`, evs[3].ID), http.StatusOK))
	checkConversationInfo(t, "POST /navigate", nav)
	fork := object(t, "fork", postJSON("fork", api+"/"+convID+"/fork", `{"title":"again"}`, http.StatusCreated))
	checkConversationInfo(t, "POST /fork", fork)
	for _, action := range []string{"pause", "interrupt", "run"} {
		checkShape(t, "POST /"+action, object(t, action, postJSON(action, api+"/"+convID+"/"+action, "", http.StatusOK)), successShape)
	}
	checkShape(t, "POST /events", object(t, "send", postJSON("send", events, `{"role":"user","content":[{"type":"text","text":"hi"}]}`, http.StatusOK)), successShape)
	checkShape(t, "POST /respond_to_confirmation", object(t, "respond",
		postJSON("respond", events+"/respond_to_confirmation", `{"accept":true}`, http.StatusOK)), successShape)
	// respond_to_ask_user (newer than 1.43.1): with no question open the
	// answer is refused with FastAPI's {"detail": str}.
	if d := object(t, "answer", postJSON("answer", events+"/respond_to_ask_user", `{"request_id":"r","action":"cancel"}`, http.StatusConflict)); jsonKind(d["detail"]) != "string" {
		t.Errorf("POST /respond_to_ask_user without a question: %v", d)
	}
	checkShape(t, "POST /confirmation_policy", object(t, "policy",
		postJSON("policy", api+"/"+convID+"/confirmation_policy", `{"policy":{"kind":"NeverConfirm"}}`, http.StatusOK)), successShape)

	// The socket: the first frame is the state, as full_state; every
	// other frame is an event.
	ws := dial(t, url, convID, "", nil)
	ws.auth(testKey)
	first, err := ws.readRaw(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	checkEvent(t, "socket frame", first)
	var snap struct {
		Key   string                     `json:"key"`
		Value map[string]json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(first, &snap); err != nil || snap.Key != "full_state" {
		t.Fatalf("first socket frame is not a full_state: %.200s", first)
	}
	for k := range snap.Value {
		if !slices.Contains(stateFields, k) {
			t.Errorf("full_state: %q is not a field of ConversationState", k)
		}
	}
	for _, k := range stateRequired {
		if _, ok := snap.Value[k]; !ok {
			t.Errorf("full_state: no %q", k)
		}
	}
	checkStats(t, "full_state.stats", snap.Value["stats"])
}

// TestConformanceOfEveryBase holds ConversationInfo to the route model
// for every kind of base state a recording comes with: none, a generated
// 1.43 one, and base_state.json files of older releases (the project's
// and, where ../shared is, the real upstream ones)
// (whose stats, written with exclude_none, lack max_budget_per_task, and
// which lack fields added since).
func TestConformanceOfEveryBase(t *testing.T) {
	bases := map[string]*model.BaseState{"none": nil, "generated": decodeBase(t, gen.BaseState(gen.Options{Events: 300, Seed: 4}))}
	for _, f := range oldBaseStates(t) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		bases[filepath.Base(f)] = decodeBase(t, raw)
	}
	for name, base := range bases {
		t.Run(name, func(t *testing.T) {
			s := New(Options{Key: testKey})
			s.Add(convID, base, basicRun(t))
			url, err := s.Start(t.Context(), "")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			waitPlayed(t, s)
			code, body := doBody(t, http.MethodGet, url+"/api/conversations/"+convID, testKey, "")
			if code != http.StatusOK {
				t.Fatalf("HTTP %d", code)
			}
			checkConversationInfo(t, name, object(t, name, body))
		})
	}
}
