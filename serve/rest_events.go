package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"ohwatch/model"
)

// eventFilter is the query of /events/search and /events/count.
type eventFilter struct {
	kind, source, body string
	gte, lt            time.Time
	desc               bool
}

// parseEventFilter reads the filters; a bad timestamp or sort order is an
// error (FastAPI answers 422).
func parseEventFilter(q url.Values) (eventFilter, error) {
	f := eventFilter{kind: q.Get("kind"), source: q.Get("source"), body: strings.ToLower(q.Get("body"))}
	switch q.Get("sort_order") {
	case "", "TIMESTAMP":
	case "TIMESTAMP_DESC":
		f.desc = true
	default:
		return f, fmt.Errorf("sort_order: TIMESTAMP or TIMESTAMP_DESC expected")
	}
	for key, dst := range map[string]*time.Time{"timestamp__gte": &f.gte, "timestamp__lt": &f.lt} {
		if v := q.Get(key); v != "" {
			t, err := model.ParseTime(v)
			if err != nil {
				return f, fmt.Errorf("%s: an ISO 8601 timestamp expected", key)
			}
			*dst = t
		}
	}
	return f, nil
}

// match reports whether ev passes every filter.
func (f eventFilter) match(ev model.Event) bool {
	if f.kind != "" && !kindMatches(ev.Kind, f.kind) {
		return false
	}
	if f.source != "" && ev.Source != f.source {
		return false
	}
	if !f.gte.IsZero() && (ev.Time.IsZero() || ev.Time.Before(f.gte)) {
		return false
	}
	if !f.lt.IsZero() && (ev.Time.IsZero() || !ev.Time.Before(f.lt)) {
		return false
	}
	if f.body != "" && (ev.Kind != model.KindMessage || !strings.Contains(strings.ToLower(messageText(ev.Raw)), f.body)) {
		return false
	}
	return true
}

// empty reports whether the filter passes every event.
func (f eventFilter) empty() bool {
	return f.kind == "" && f.source == "" && f.body == "" && f.gte.IsZero() && f.lt.IsZero()
}

// count is the number of events that pass the filter.
func (f eventFilter) count(evs []model.Event) int {
	if f.empty() {
		return len(evs)
	}
	n := 0
	for _, ev := range evs {
		if f.match(ev) {
			n++
		}
	}
	return n
}

// page walks the events in the filter's order (TIMESTAMP is the on-disk,
// that is emission, order, as on the agent-server) from the event at
// position from, and returns up to limit matching events and the id of the
// next match ("" when there is none). It costs O(limit) without filters.
func (f eventFilter) page(evs []model.Event, from, limit int) (items []model.Event, next string) {
	step := 1
	if f.desc {
		step = -1
	}
	for i := from; i >= 0 && i < len(evs); i += step {
		if !f.match(evs[i]) {
			continue
		}
		if len(items) == limit {
			return items, evs[i].ID
		}
		items = append(items, evs[i])
	}
	return items, ""
}

// start is where a page begins: at page_id when it names an event that
// passes the filter (page_id is inclusive), otherwise at the first event in
// the filter's order, as the agent-server restarts on an unknown page_id.
func (f eventFilter) start(evs []model.Event, at int, known bool) int {
	if known && at < len(evs) && f.match(evs[at]) {
		return at
	}
	if f.desc {
		return len(evs) - 1
	}
	return 0
}

// messageText is the text of a MessageEvent's content, what the body
// filter searches.
func messageText(raw []byte) string {
	var m struct {
		LLMMessage struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"llm_message"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var b strings.Builder
	for _, c := range m.LLMMessage.Content {
		b.WriteString(c.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// handleSearchEvents answers GET /{id}/events/search: emitted events only,
// filtered, in pages of limit starting at page_id inclusive (an unknown
// page_id starts from the beginning), with next_page_id the first event of
// the next page.
func (s *Server) handleSearchEvents(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(r.PathValue("id"))
	if c == nil {
		notFound(w)
		return
	}
	q := r.URL.Query()
	limit, err := parseLimit(q.Get("limit"))
	if err != nil {
		writeDetail(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	f, err := parseEventFilter(q)
	if err != nil {
		writeDetail(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	evs := c.events()
	at, known := c.position(q.Get("page_id"))
	items, next := f.page(evs, f.start(evs, at, known), limit)
	writeEventsPage(w, items, next)
}

// writeEventsPage writes {"items": [...], "next_page_id": ...} with each
// event's raw bytes as they were recorded.
func writeEventsPage(w http.ResponseWriter, items []model.Event, next string) {
	var buf bytes.Buffer
	buf.WriteString(`{"items":[`)
	for i, ev := range items {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(ev.Raw)
	}
	buf.WriteString(`],"next_page_id":`)
	if next == "" {
		buf.WriteString("null")
	} else {
		buf.Write(mustJSON(next))
	}
	buf.WriteByte('}')
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(buf.Bytes())
}

// handleCountEvents answers GET /{id}/events/count with the same filters.
func (s *Server) handleCountEvents(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(r.PathValue("id"))
	if c == nil {
		notFound(w)
		return
	}
	f, err := parseEventFilter(r.URL.Query())
	if err != nil {
		writeDetail(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, f.count(c.events()))
}

// handleGetEvent answers GET /{id}/events/{event_id}: an emitted event, or
// 404.
func (s *Server) handleGetEvent(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(r.PathValue("id"))
	if c == nil {
		notFound(w)
		return
	}
	ev, ok := c.event(r.PathValue("event_id"))
	if !ok {
		notFound(w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(ev.Raw)
}

// handleBatchGetEvents answers GET /{id}/events with one event or null per
// id asked for, in that order. As upstream, the ids are the request's JSON
// body, a list of strings, not query parameters: the route declares
// `event_ids: list[str]` without Query(), which FastAPI reads from the
// body (openhands-agent-server event_router.py,
// batch_get_conversation_events; EventService.batch_get_events). Upstream
// sets no limit on their number; the body's bound (maxRequestBody) is one.
func (s *Server) handleBatchGetEvents(w http.ResponseWriter, r *http.Request) {
	c := s.lookup(r.PathValue("id"))
	if c == nil {
		notFound(w)
		return
	}
	var ids []string
	data, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody))
	if err != nil || json.Unmarshal(data, &ids) != nil || ids == nil {
		writeDetail(w, http.StatusUnprocessableEntity, `body: a JSON list of event ids expected`)
		return
	}
	out := make([]byte, 0, 1024)
	out = append(out, '[')
	for k, id := range ids {
		if k > 0 {
			out = append(out, ',')
		}
		if ev, ok := c.event(id); ok {
			out = append(out, ev.Raw...)
		} else {
			out = append(out, "null"...)
		}
	}
	out = append(out, ']')
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}
