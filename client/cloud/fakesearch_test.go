package cloud

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// searchConversations pages through the listed conversations as the app
// server does: limit (1-100, 422 otherwise) per page, page_id an opaque
// offset, next_page_id null on the last page.
func (f *fakeCloud) searchConversations(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	items := append([]any(nil), anySlice(f.listed)...)
	f.mu.Unlock()
	f.page(w, r, items)
}

// searchEvents pages through the events Cloud stored for a conversation.
func (f *fakeCloud) searchEvents(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	var items []any
	for _, raw := range f.stored[r.PathValue("id")] {
		items = append(items, raw)
	}
	f.mu.Unlock()
	f.page(w, r, items)
}

func (f *fakeCloud) page(w http.ResponseWriter, r *http.Request, items []any) {
	limit := 100
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"detail": []map[string]any{{"loc": []string{"query", "limit"}, "msg": "bad limit"}}})
			return
		}
		limit = n
	}
	start, _ := strconv.Atoi(r.URL.Query().Get("page_id"))
	start = min(max(start, 0), len(items))
	end := min(start+limit, len(items))
	var next any
	if end < len(items) {
		next = strconv.Itoa(end)
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items[start:end], "next_page_id": next})
}

func anySlice(ms []map[string]any) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// list adds a conversation to the account's listing, in the shape of
// AppConversation, with a sandbox of that status.
func (f *fakeCloud) list(id, title, sandboxStatus string) map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	sb := "sb-" + id[:6]
	c := map[string]any{
		"id": id, "created_by_user_id": "user-1", "sandbox_id": sb, "title": title,
		"sandbox_status": sandboxStatus, "execution_status": nil, "conversation_url": nil,
		"session_api_key": nil, "acp_server": nil, "launched_agent_profile": nil,
		"created_at": "2026-08-13T10:00:00Z", "updated_at": "2026-08-13T10:05:00Z",
		"metrics": map[string]any{"model_name": "claude", "accumulated_cost": 0.25,
			"accumulated_token_usage": map[string]any{"prompt_tokens": 1000, "completion_tokens": 50}},
		"tags": map[string]string{}, "sub_conversation_ids": []string{},
	}
	f.sandboxes[sb] = &fakeSandbox{id: sb, spec: "default-spec", status: sandboxStatus}
	if sandboxStatus == "RUNNING" {
		c["execution_status"] = "running"
		c["conversation_url"] = "https://" + sb + ".runtime.example/api/conversations/" + id
		c["session_api_key"] = fakeSessionKey
	}
	f.listed = append(f.listed, c)
	return c
}

// store gives a conversation the events Cloud keeps for it.
func (f *fakeCloud) store(id string, raws ...[]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stored == nil {
		f.stored = map[string][]json.RawMessage{}
	}
	for _, raw := range raws {
		f.stored[id] = append(f.stored[id], raw)
	}
}
