package agentserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// TreeVersion is the first agent-server release whose conversations are
// trees with fork-from-event and navigate (SDK v1.31, PR #3922/#3923).
const TreeVersion = "1.31"

// ErrTreeUnsupported means the agent-server has no fork or navigate route:
// it is older than TreeVersion. errors.As gives the *TreeUnsupportedError
// that names the operation.
var ErrTreeUnsupported = errors.New("fork/navigate not supported")

// TreeUnsupportedError is a fork or navigate the server answered 404 for
// while the conversation exists: the route is missing.
type TreeUnsupportedError struct {
	Op string // "fork" or "navigate"
}

// Error implements error.
func (e *TreeUnsupportedError) Error() string {
	return fmt.Sprintf("this agent-server does not support %s (older than %s)", e.Op, TreeVersion)
}

// Is makes errors.Is(err, ErrTreeUnsupported) hold.
func (e *TreeUnsupportedError) Is(target error) bool { return target == ErrTreeUnsupported }

// ErrRuntimeUnsupported means the server runs the conversation in a runtime
// that cannot do the operation: a Docker-runtime agent-server answers 501
// "This operation is unavailable in Docker runtime mode" to fork,
// switch_llm, switch_profile and credential-bindings (upstream
// docker_runtime/routers.py, proxy_conversation, PR #3403).
var ErrRuntimeUnsupported = errors.New("not available in this server's runtime")

// RuntimeUnsupportedError is a fork or navigate the server answered 501.
// It is also ErrTreeUnsupported: asking again changes nothing.
type RuntimeUnsupportedError struct {
	Op     string // "fork" or "navigate"
	Docker bool   // the server said it is its Docker runtime
}

// Error implements error.
func (e *RuntimeUnsupportedError) Error() string {
	if e.Docker {
		return fmt.Sprintf("this server cannot %s a conversation in its Docker runtime", e.Op)
	}
	return fmt.Sprintf("this server does not implement %s (501)", e.Op)
}

// Is makes errors.Is hold for ErrRuntimeUnsupported and ErrTreeUnsupported.
func (e *RuntimeUnsupportedError) Is(target error) bool {
	return target == ErrRuntimeUnsupported || target == ErrTreeUnsupported
}

// runtimeRefusal is the RuntimeUnsupportedError of a 501, or nil.
func runtimeRefusal(op string, err error) error {
	var he *HTTPError
	if !errors.As(err, &he) || he.Status != http.StatusNotImplemented {
		return nil
	}
	return &RuntimeUnsupportedError{Op: op, Docker: strings.Contains(he.Body, "Docker runtime")}
}

// ErrWholeFork means the server made a fork but ignored from_event_id: a
// server that has fork but not the tree (before TreeVersion) copies the
// whole conversation. Fork returns the new id with it.
var ErrWholeFork = fmt.Errorf("the agent-server ignored from_event_id and copied the whole conversation (it is older than %s)", TreeVersion)

// forkRequest is the body of POST /{id}/fork (ForkConversationRequest).
type forkRequest struct {
	FromEventID  string `json:"from_event_id,omitempty"`
	Title        string `json:"title,omitempty"`
	ResetMetrics bool   `json:"reset_metrics"`
}

// Fork makes a new conversation from the branch of conversation id that
// ends at fromEventID ("" for HEAD), titled title ("" leaves the server's
// default), with its metrics reset or carried over. It returns the new
// conversation's id. The fork starts idle: SendMessage (or Run) sets it
// going. A server without fork gives an error satisfying
// errors.Is(err, ErrTreeUnsupported); one that ignored fromEventID returns
// the new id with ErrWholeFork.
func (c *Client) Fork(ctx context.Context, id, fromEventID, title string, resetMetrics bool) (string, error) {
	var raw []byte
	body := forkRequest{FromEventID: fromEventID, Title: title, ResetMetrics: resetMetrics}
	if err := c.postJSON(ctx, conversationRoute(id, "/fork"), body, (*rawJSON)(&raw)); err != nil {
		return "", c.treeError(ctx, id, "fork", err)
	}
	info, err := c.decodeConversation(raw)
	if err != nil {
		return "", fmt.Errorf("POST %s: %w", conversationRoute(id, "/fork"), err)
	}
	if info.ID == "" {
		return "", fmt.Errorf("POST %s: the answer names no conversation", conversationRoute(id, "/fork"))
	}
	if fromEventID != "" && info.ForkedFromEventID != fromEventID && info.LeafEventID != fromEventID {
		return info.ID, ErrWholeFork
	}
	return info.ID, nil
}

// navigateRequest is the body of POST /{id}/navigate.
type navigateRequest struct {
	EventID string `json:"event_id"`
}

// Navigate moves conversation id's HEAD (leaf_event_id) to eventID: what
// the agent does next hangs from there. A server without navigate gives an
// error satisfying errors.Is(err, ErrTreeUnsupported).
func (c *Client) Navigate(ctx context.Context, id, eventID string) error {
	if err := c.postJSON(ctx, conversationRoute(id, "/navigate"), navigateRequest{EventID: eventID}, nil); err != nil {
		return c.treeError(ctx, id, "navigate", err)
	}
	return nil
}

// treeError turns a 404 from a fork or navigate into ErrTreeUnsupported
// when the conversation exists (the route is what is missing); otherwise
// the error stays (ErrNotFound for a conversation that is gone).
func (c *Client) treeError(ctx context.Context, id, op string, err error) error {
	if r := runtimeRefusal(op, err); r != nil {
		return r
	}
	if !errors.Is(err, ErrNotFound) || unknownEvent(err) {
		return err
	}
	if _, infoErr := c.Conversation(ctx, id); infoErr == nil {
		return &TreeUnsupportedError{Op: op}
	}
	return err
}

// unknownEvent reports whether a 404 names the event asked for: since
// 1.43 the agent-server answers an unknown event_id or from_event_id with
// 404 "Unknown event_id: …" / "Unknown from_event_id: …"
// (conversation_router.py, navigate_conversation and fork_conversation),
// where a server without the route says "Not Found".
func unknownEvent(err error) bool {
	var he *HTTPError
	return errors.As(err, &he) && strings.Contains(he.Body, "Unknown ") && strings.Contains(he.Body, "event_id")
}

// SendMessage sends text as a user message to conversation id and lets the
// agent run (run: true), as a person typing in a chat does. Beware
// (protocol §5): a message sent while the conversation waits for
// confirmation approves the pending actions.
func (c *Client) SendMessage(ctx context.Context, id, text string) error {
	body := model.NewUserMessage(text)
	return c.postJSON(ctx, conversationRoute(id, "/events"), body, nil)
}

// rawJSON keeps an answer's bytes for a decoder of its own.
type rawJSON []byte

// UnmarshalJSON implements json.Unmarshaler.
func (r *rawJSON) UnmarshalJSON(b []byte) error {
	*r = append((*r)[:0], b...)
	return nil
}

// ParentID is the conversation this one descends from on the same
// server: the one it was forked from, else the one that delegated it ("" for
// none), as model.ConversationMeta.ParentID wants it.
func (i *ConversationInfo) ParentID() string {
	if i.ForkedFromConversationID != "" {
		return i.ForkedFromConversationID
	}
	return i.ParentConversationID
}

// lineage is the part of ConversationInfo that says where a conversation
// sits among others and in its own tree (protocol §3.2).
type lineage struct {
	ForkedFromConversationID string   `json:"forked_from_conversation_id"`
	ForkedFromEventID        string   `json:"forked_from_event_id"`
	ParentConversationID     string   `json:"parent_conversation_id"`
	SubConversationIDs       []string `json:"sub_conversation_ids"`
	LeafEventID              string   `json:"leaf_event_id"`
}

// apply copies the lineage into info, every id made safe to show and the
// conversation ids normalised.
func (l lineage) apply(info *ConversationInfo) {
	info.ForkedFromConversationID = sanitize.Line(model.NormalizeConversationID(l.ForkedFromConversationID))
	info.ForkedFromEventID = sanitize.Line(l.ForkedFromEventID)
	info.ParentConversationID = sanitize.Line(model.NormalizeConversationID(l.ParentConversationID))
	info.LeafEventID = sanitize.Line(l.LeafEventID)
	for _, sub := range l.SubConversationIDs {
		if id := sanitize.Line(model.NormalizeConversationID(sub)); id != "" {
			info.SubConversationIDs = append(info.SubConversationIDs, id)
		}
	}
}
