package cloud

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"ohwatch/model"
)

// The account's listing: every conversation of the account
// (GET /api/v1/app-conversations/search, all pages), the events Cloud
// stored for one (StoredEvents), and where
// a running one can be watched live — all without starting, resuming or
// deleting any sandbox, so a fleet can show an account without waking it.

// searchPageLimit is the largest page the app server allows (1-100).
const searchPageLimit = 100

// maxSearchPages bounds one paged search: a server whose pages never end
// must not hold the caller for ever.
const maxSearchPages = 10_000

// Conversation is one Cloud conversation as the account's listing shows it
// (AppConversation). Its agent-server session key stays inside the
// package: Live hands it out in a Target.
type Conversation struct {
	// ID is the conversation id, normalised (32 lowercase hex).
	ID    string
	Title string
	// SandboxID and SandboxStatus say where it runs and whether that
	// sandbox runs now (STARTING, RUNNING, PAUSED, ERROR, MISSING).
	SandboxID     string
	SandboxStatus string
	// ExecutionStatus is the agent's status; Cloud reports none unless
	// the sandbox is RUNNING.
	ExecutionStatus string
	CreatedAt       string
	UpdatedAt       string
	// ParentID is the conversation this one is a sub-conversation of.
	ParentID string
	// Metrics is the listing's metrics snapshot (it may lag the events);
	// nil when Cloud reported none, or only zeros (metricsSnapshot.zero).
	Metrics *model.Metrics

	agentURL   string
	sessionKey string
}

// Paused reports whether the conversation's sandbox is paused: its
// agent-server is unreachable until someone resumes it, and its events are
// the ones Cloud stored (StoredEvents).
func (c *Conversation) Paused() bool { return c.SandboxStatus == sandboxPaused }

// Running reports whether the sandbox runs, so the conversation can be
// watched live (Live).
func (c *Conversation) Running() bool { return c.SandboxStatus == sandboxRunning }

// String describes the conversation without its session key.
func (c Conversation) String() string {
	return fmt.Sprintf("cloud conversation %s (sandbox %s)", c.ID, c.SandboxStatus)
}

// GoString keeps %#v as safe as %v.
func (c Conversation) GoString() string { return c.String() }

// listedConversation is the part of AppConversation the listing reads.
type listedConversation struct {
	appConversation
	CreatedAt string          `json:"created_at"`
	UpdatedAt string          `json:"updated_at"`
	ParentID  *string         `json:"parent_conversation_id"`
	Metrics   json.RawMessage `json:"metrics"`
}

// metricsSnapshot is MetricsSnapshot.
type metricsSnapshot struct {
	ModelName       string   `json:"model_name"`
	AccumulatedCost float64  `json:"accumulated_cost"`
	MaxBudget       *float64 `json:"max_budget_per_task"`
	Usage           *struct {
		Prompt        int64 `json:"prompt_tokens"`
		Completion    int64 `json:"completion_tokens"`
		CacheRead     int64 `json:"cache_read_tokens"`
		CacheWrite    int64 `json:"cache_write_tokens"`
		Reasoning     int64 `json:"reasoning_tokens"`
		ContextWindow int64 `json:"context_window"`
		PerTurn       int64 `json:"per_turn_token"`
	} `json:"accumulated_token_usage"`
}

// zero reports whether the snapshot says no cost and no tokens. The
// 2025-11 app server lists that for every conversation, one that ran an
// LLM too (nothing writes its stored metrics): a zero there is not a
// known $0.00, so the listing's metrics are unknown and the events tell.
func (m *metricsSnapshot) zero() bool {
	if m.AccumulatedCost != 0 {
		return false
	}
	u := m.Usage
	return u == nil || u.Prompt == 0 && u.Completion == 0 && u.CacheRead == 0 && u.CacheWrite == 0 && u.Reasoning == 0
}

// searchPage is AppConversationPage and EventPage alike.
type searchPage struct {
	Items      []json.RawMessage `json:"items"`
	NextPageID *string           `json:"next_page_id"`
}

// Conversations lists every conversation of the account, following every
// page of /api/v1/app-conversations/search. Sub-conversations are included:
// a fleet shows what the account runs. An item that is not an object is
// skipped; an item without an id too.
func (s *Session) Conversations(ctx context.Context) ([]Conversation, error) {
	const path = "/api/v1/app-conversations/search"
	var out []Conversation
	seen := map[string]bool{}
	q := url.Values{"include_sub_conversations": {"true"}}
	err := s.eachPage(ctx, path, q, func(items []json.RawMessage) int {
		fresh := 0
		for _, raw := range items {
			var lc listedConversation
			if json.Unmarshal(raw, &lc) != nil {
				continue
			}
			if id := strings.TrimSpace(lc.ID); id != "" && !model.IsConversationID(id) && model.CheckConversationID(id) != nil {
				// Refused, not cleaned: ".." would be another route, and
				// two ids cleaned of escapes could become one.
				continue
			}
			c := s.conversationOf(&lc)
			if c.ID == "" || seen[c.ID] {
				continue
			}
			seen[c.ID] = true
			fresh++
			out = append(out, c)
		}
		return fresh
	})
	if err == nil {
		s.fillParents(ctx, out)
	}
	return out, err
}

// conversationOf turns a listed AppConversation into a Conversation,
// learning its session key as a secret to redact.
func (s *Session) conversationOf(lc *listedConversation) Conversation {
	key := str(lc.SessionAPIKey)
	s.secrets.add(key)
	c := Conversation{
		ID:              model.NormalizeConversationID(s.secrets.clean(lc.ID)),
		Title:           model.CapBytes(s.secrets.clean(str(lc.Title)), model.MaxTitleBytes),
		SandboxID:       s.secrets.clean(lc.SandboxID),
		SandboxStatus:   s.secrets.clean(lc.SandboxStatus),
		ExecutionStatus: model.CapBytes(s.secrets.clean(str(lc.ExecutionStatus)), model.MaxStatusBytes),
		CreatedAt:       s.secrets.clean(lc.CreatedAt),
		UpdatedAt:       s.secrets.clean(lc.UpdatedAt),
		ParentID:        model.NormalizeConversationID(s.secrets.clean(str(lc.ParentID))),
		agentURL:        agentServerFromConversationURL(str(lc.ConversationURL)),
		sessionKey:      key,
	}
	if !isConversationID(c.ID) {
		c.ID = ""
	}
	var m metricsSnapshot
	if len(lc.Metrics) > 0 && string(lc.Metrics) != "null" && json.Unmarshal(lc.Metrics, &m) == nil && !m.zero() {
		c.Metrics = &model.Metrics{ModelName: s.secrets.clean(m.ModelName), AccumulatedCost: m.AccumulatedCost, MaxBudgetPerTask: m.MaxBudget}
		if u := m.Usage; u != nil {
			c.Metrics.Accumulated = model.TokenUsage{Prompt: u.Prompt, Completion: u.Completion, CacheRead: u.CacheRead,
				CacheWrite: u.CacheWrite, Reasoning: u.Reasoning, ContextWindow: u.ContextWindow, PerTurn: u.PerTurn}
		}
	}
	return c
}

// storedChunk is how many stored events StoredEvents hands fn at a time,
// so a long history shows while the rest is handed on.
const storedChunk = 500

// StoredEvents hands fn the events Cloud stored for a conversation, every
// page, in the order they happened (orderStored), a chunk at a time; the
// first call also carries the warnings of that ordering. It reads them
// where they are kept, without resuming a paused sandbox, by the route of
// later app servers (GET /api/v1/conversation/{id}/events/search) and, if
// that one is not found, the older one
// (GET /api/v1/events/search?conversation_id__eq=ID), as a client of
// several Cloud versions must. Items that are not JSON objects are skipped.
func (s *Session) StoredEvents(ctx context.Context, id string, fn func(evs []model.Event, warnings []string) error) error {
	evs, err := s.storedAll(ctx, id)
	if err != nil {
		return err
	}
	evs, warns := orderStored(evs)
	for len(evs) > 0 || warns != nil {
		n := min(len(evs), storedChunk)
		if err := fn(evs[:n:n], warns); err != nil {
			return err
		}
		evs, warns = evs[n:], nil
	}
	return nil
}

// storedAll reads every page of a conversation's stored events, as the
// server gives them: they are put in order only once all are in.
func (s *Session) storedAll(ctx context.Context, id string) ([]model.Event, error) {
	var evs []model.Event
	collect := func(items []json.RawMessage) int {
		fresh := 0
		for _, raw := range items {
			if ev, err := model.Decode(s.secrets.RedactJSON(raw)); err == nil {
				evs = append(evs, ev)
				fresh++
			}
		}
		return fresh
	}
	if !s.olderEvents.Load() {
		err := s.eachPage(ctx, "/api/v1/conversation/"+url.PathEscape(id)+"/events/search", url.Values{}, collect)
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.Status != http.StatusNotFound {
			return evs, err
		}
		// An app server older than the route: remembered for this session.
		s.olderEvents.Store(true)
		evs = evs[:0]
	}
	err := s.eachPage(ctx, "/api/v1/events/search", url.Values{"conversation_id__eq": {id}}, collect)
	return evs, err
}

// eachPage follows a paged /api/v1 search from the first page until
// next_page_id is null, handing each page's items to fn, which says how
// many were new. A page that brings nothing new ends the search, a
// repeated page id is an error, and so is a search past maxSearchPages.
func (s *Session) eachPage(ctx context.Context, path string, q url.Values, fn func([]json.RawMessage) (fresh int)) error {
	q.Set("limit", strconv.Itoa(searchPageLimit))
	seen := map[string]bool{}
	for pages := 1; ; pages++ {
		if pages > maxSearchPages {
			return fmt.Errorf("cloud: GET %s: gave up after %d pages: the paging does not end", path, maxSearchPages)
		}
		var p searchPage
		if err := s.api.do(ctx, http.MethodGet, path, q, nil, &p); err != nil {
			return err
		}
		fresh := fn(p.Items)
		next := str(p.NextPageID)
		if next == "" || fresh == 0 {
			return nil
		}
		if seen[next] {
			return fmt.Errorf("cloud: GET %s: paging does not advance (next_page_id repeats)", path)
		}
		seen[next] = true
		q.Set("page_id", next)
	}
}

// Live returns where a running conversation can be watched: its
// agent-server URL (from conversation_url, else the sandbox's AGENT_SERVER
// URL) and session key. It never resumes a sandbox: a conversation whose
// sandbox does not run is ErrSandbox.
func (s *Session) Live(ctx context.Context, c Conversation) (Target, error) {
	if !c.Running() {
		return Target{}, fmt.Errorf("cloud: the sandbox of conversation %s is %s: %w", c.ID, c.SandboxStatus, ErrSandbox)
	}
	agentURL, key := c.agentURL, c.sessionKey
	if agentURL == "" || key == "" {
		sb, err := s.getSandbox(ctx, c.SandboxID)
		if err != nil {
			return Target{}, err
		}
		if agentURL == "" {
			agentURL = sb.agentServerURL()
		}
		if key == "" {
			key = str(sb.SessionAPIKey)
		}
	}
	if agentURL == "" {
		return Target{}, fmt.Errorf("cloud: Cloud gave no agent-server URL for conversation %s", c.ID)
	}
	checked, err := s.checkAgentServerURL(agentURL)
	if err != nil {
		return Target{}, err
	}
	s.secrets.add(key)
	return Target{AgentServerURL: checked, ConversationID: c.ID, SessionKey: key}, nil
}

// Redact removes every secret the session knows (the API key, the session
// keys Cloud handed out) from text in every form a server may echo them.
func (s *Session) Redact(text string) string { return s.secrets.redact(text) }

// Resume wakes the paused sandbox of a listed conversation (POST
// /api/v1/sandboxes/{sandbox_id}/resume), waits until it runs and returns
// where to watch the conversation live, as Attach does. Cloud starts the
// sandbox again, and it runs on the account until paused or deleted;
// Resume never deletes it. A conversation whose sandbox already runs is
// not resumed again.
func (s *Session) Resume(ctx context.Context, c Conversation) (Target, error) {
	return s.Attach(ctx, c.ID)
}
