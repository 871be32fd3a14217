package agentserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// searchPageLimit is the largest page the agent-server allows (1-100).
const searchPageLimit = 100

// ConversationInfo is what the server says about one conversation (REST
// ConversationInfo, protocol §3.2). Base holds the state dump decoded like
// base_state.json; its Stats are authoritative (the `metrics` field is often
// stale and is ignored).
type ConversationInfo struct {
	ID              string // normalised lowercase 32-hex
	Title           string // sanitised, one line
	ExecutionStatus string
	CreatedAt       time.Time
	UpdatedAt       time.Time
	Base            *model.BaseState
	// Usage is Base's stats summed, set instead of them on the items of a
	// listing whose memo summarises (ListingMemo.Summarize).
	Usage *model.ListedUsage
	// ForkedFromConversationID and ForkedFromEventID say where a fork came
	// from; ParentConversationID is the conversation that delegated this
	// one and SubConversationIDs those it delegated; LeafEventID is HEAD.
	// Conversation ids are normalised; "" (nil) when the server says none.
	ForkedFromConversationID string
	ForkedFromEventID        string
	ParentConversationID     string
	SubConversationIDs       []string
	LeafEventID              string
	// ArchivedAt is when the conversation was archived; zero when it is
	// not (or the server has no archive).
	ArchivedAt time.Time
	// HasArchive is set when the server sent archived_at at all (null
	// included): a server with archives, whose search lists the active
	// conversations unless asked for more.
	HasArchive bool
}

// conversationHeader is the part of ConversationInfo that BaseState does
// not carry.
type conversationHeader struct {
	ID              string `json:"id"`
	Title           string `json:"title"`
	ExecutionStatus string `json:"execution_status"`
	AgentStatus     string `json:"agent_status"` // before 2025-11
	CreatedAt       string `json:"created_at"`
	UpdatedAt       string `json:"updated_at"`
	// ArchivedAt is set once the conversation is archived (SDK #4994:
	// archive, unarchive; search and count list active ones by default).
	ArchivedAt json.RawMessage `json:"archived_at"`
}

// decodeConversation decodes one ConversationInfo object the server sent,
// with the session key cut out of it first (a title, a base state's
// fields) wherever it was echoed (redact.JSON).
func (c *Client) decodeConversation(raw []byte) (*ConversationInfo, error) {
	return decodeConversation(c.secrets.RedactJSON(raw))
}

// decodeConversation turns one ConversationInfo object into the typed form.
func decodeConversation(raw []byte) (*ConversationInfo, error) {
	var h conversationHeader
	if err := json.Unmarshal(raw, &h); err != nil {
		return nil, fmt.Errorf("conversation info: %w", err)
	}
	base, err := model.DecodeBaseState(raw)
	if err != nil {
		return nil, fmt.Errorf("conversation info: %w", err)
	}
	// An id is checked as sent: cleaning it (escape sequences stripped)
	// could make two ids one, or one a route of its own ("..").
	if id := strings.TrimSpace(h.ID); id != "" && !model.IsConversationID(id) {
		if err := model.CheckConversationID(id); err != nil {
			return nil, err
		}
	}
	info := &ConversationInfo{
		ID:              sanitize.Line(model.NormalizeConversationID(h.ID)),
		Title:           model.CapBytes(sanitize.Line(h.Title), model.MaxTitleBytes),
		ExecutionStatus: model.CapBytes(sanitize.Line(h.ExecutionStatus), model.MaxStatusBytes),
		Base:            base,
	}
	if info.ExecutionStatus == "" {
		info.ExecutionStatus = model.CapBytes(sanitize.Line(h.AgentStatus), model.MaxStatusBytes)
	}
	if info.ExecutionStatus == "" {
		info.ExecutionStatus = base.ExecutionStatus
	}
	if info.Title == "" {
		info.Title = model.CapBytes(base.Title, model.MaxTitleBytes)
	}
	info.ExecutionStatus = model.CapBytes(info.ExecutionStatus, model.MaxStatusBytes)
	if info.ID == "" {
		info.ID = base.ID
	}
	// A lineage field of the wrong type is left out, not fatal: Unmarshal
	// fills what fits and reports the rest.
	var l lineage
	_ = json.Unmarshal(raw, &l)
	l.apply(info)
	info.CreatedAt, _ = model.ParseTime(h.CreatedAt)
	info.UpdatedAt, _ = model.ParseTime(h.UpdatedAt)
	if info.HasArchive = len(h.ArchivedAt) > 0; info.HasArchive {
		var at string
		if json.Unmarshal(h.ArchivedAt, &at) == nil {
			info.ArchivedAt, _ = model.ParseTime(at)
		}
	}
	return info, nil
}

// Conversation fetches GET /api/conversations/{id}: metadata, the current
// execution status and the full stats. A missing conversation gives an
// error satisfying errors.Is(err, ErrNotFound).
func (c *Client) Conversation(ctx context.Context, id string) (*ConversationInfo, error) {
	var raw json.RawMessage
	route := conversationRoute(id, "")
	if err := c.getJSON(ctx, route, nil, &raw); err != nil {
		return nil, err
	}
	info, err := c.decodeConversation(raw)
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", route, err)
	}
	return info, nil
}

// Confirm asks the server for the conversation's current execution status.
// The headless watch uses it to confirm (or deny) a provisional "finished"
// when no full_state snapshot arrived within its grace period.
func (c *Client) Confirm(ctx context.Context, id string) (status string, err error) {
	info, err := c.Conversation(ctx, id)
	if err != nil {
		return "", err
	}
	return info.ExecutionStatus, nil
}

// page is the agent-server's paged answer shape for both conversation and
// event search.
type page struct {
	Items      []json.RawMessage `json:"items"`
	NextPageID *string           `json:"next_page_id"`
}

// SearchConversations lists every conversation on the server, following
// the pages of /api/conversations/search (newest first, the server's
// default order) as ListConversations does, with its default bounds. An
// item the server could not serialise (null) or that is malformed is
// skipped (and logged).
func (c *Client) SearchConversations(ctx context.Context) ([]*ConversationInfo, error) {
	out, _, err := c.SearchConversationsWith(ctx, ListOptions{})
	return out, err
}

// SearchConversationsWith is SearchConversations with options (the
// archived conversations included, say), and how the listing went
// (Listing.Archived: how many archived ones it left out).
func (c *Client) SearchConversationsWith(ctx context.Context, opts ListOptions) ([]*ConversationInfo, Listing, error) {
	var out []*ConversationInfo
	l, err := c.ListConversations(ctx, opts, func(page []*ConversationInfo) { out = append(out, page...) })
	if l.Skipped > 0 {
		c.log.Warn("skipped conversations the server listed malformed", "count", l.Skipped, "first", l.FirstSkip)
	}
	if l.Cut != "" && l.Cut != CutNothingNew {
		c.log.Warn("the listing was cut", "why", l.Cut, "conversations", l.Items)
	}
	return out, l, err
}

// CountConversations returns GET /api/conversations/count.
func (c *Client) CountConversations(ctx context.Context) (int, error) {
	var n int
	if err := c.getJSON(ctx, "/api/conversations/count", nil, &n); err != nil {
		return 0, err
	}
	return n, nil
}

// CountEvents returns the length of a conversation's event log
// (GET /api/conversations/{id}/events/count, cheap without filters).
func (c *Client) CountEvents(ctx context.Context, id string) (int, error) {
	var n int
	if err := c.getJSON(ctx, conversationRoute(id, "/events/count"), nil, &n); err != nil {
		return 0, err
	}
	return n, nil
}

// ServerInfo is what GET /server_info reports that ohwatch uses.
type ServerInfo struct {
	Title      string
	Version    string
	SDKVersion string
	// IdleTime is the seconds since the last activity on any conversation.
	IdleTime float64
	Uptime   float64
}

// ServerInfo fetches GET /server_info (no authentication needed, but the
// key is sent anyway: proxies in front of the server may require it).
func (c *Client) ServerInfo(ctx context.Context) (*ServerInfo, error) {
	var raw struct {
		Title      string  `json:"title"`
		Version    string  `json:"version"`
		SDKVersion string  `json:"sdk_version"`
		IdleTime   float64 `json:"idle_time"`
		Uptime     float64 `json:"uptime"`
	}
	if err := c.getJSON(ctx, "/server_info", nil, &raw); err != nil {
		return nil, err
	}
	return &ServerInfo{
		Title:      sanitize.Line(raw.Title),
		Version:    sanitize.Line(raw.Version),
		SDKVersion: sanitize.Line(raw.SDKVersion),
		IdleTime:   raw.IdleTime,
		Uptime:     raw.Uptime,
	}, nil
}

// maxSearchPages bounds one paged search: two million items at 100 a
// page, far beyond any real conversation, and a bound on a server whose
// pages never end.
const maxSearchPages = 20_000

// eachPage follows a paged search route from the first page until
// next_page_id is null, handing each page's items to fn, which says how
// many of them were new. page_id is inclusive on the agent-server (the
// page starts at that item), so the next page id is passed on unchanged.
//
// A server that pages for ever must not hold the watch for ever: a page
// that brings nothing new ends the search (what came is kept), a repeated
// page id is an error, and so is a search past maxSearchPages. A page too
// large to accept (ErrTooLarge: events with screenshots) is asked for
// again in smaller pages, down to one item, and pages grow back after.
func (c *Client) eachPage(ctx context.Context, route string, q url.Values, fn func([]json.RawMessage) (fresh int, err error)) error {
	limit := searchPageLimit
	q.Set("limit", strconv.Itoa(limit))
	seen := map[string]bool{}
	for pages := 1; ; pages++ {
		if pages > c.maxPages {
			return fmt.Errorf("GET %s: gave up after %d pages: the server's paging does not end", route, c.maxPages)
		}
		var p page
		err := c.getJSON(ctx, route, q, &p)
		if errors.Is(err, ErrTooLarge) && limit > 1 {
			limit = max(1, limit/4)
			q.Set("limit", strconv.Itoa(limit))
			c.log.Debug("page too large; asking for smaller pages", "route", route, "limit", limit)
			continue
		}
		if err != nil {
			return err
		}
		fresh, err := fn(p.Items)
		if err != nil {
			return err
		}
		if limit < searchPageLimit {
			// Past the large events, pages grow back.
			limit = min(2*limit, searchPageLimit)
			q.Set("limit", strconv.Itoa(limit))
		}
		if p.NextPageID == nil || *p.NextPageID == "" {
			return nil
		}
		next := *p.NextPageID
		if seen[next] {
			return fmt.Errorf("GET %s: paging does not advance (next_page_id repeats)", route)
		}
		if fresh == 0 {
			c.log.Warn("a page brought nothing new; ending the search there", "route", route, "pages", pages)
			return nil
		}
		seen[next] = true
		q.Set("page_id", next)
	}
}

// isJSONNull reports whether raw is the JSON literal null.
func isJSONNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}
