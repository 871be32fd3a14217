package agentserver

import (
	"context"
	"errors"

	"ohwatch/internal/sanitize"
	"ohwatch/model"
)

// Runtime statuses a server with conversation runtimes reports (upstream
// openhands-agent-server models.py ConversationRuntimeStatus, PR #4966, SDK
// 1.48): whether the runtime that executes a conversation is there, which is
// not the conversation's execution status.
const (
	RuntimeAvailable     = "available"
	RuntimeStarting      = "starting"
	RuntimeMissing       = "missing"
	RuntimeOwnershipLost = "ownership_lost"
	RuntimeError         = "error"
)

// RuntimeInfo is GET /api/conversations/{id}/runtime: the runtime's status,
// whether the server can resume it, and its latest failure.
type RuntimeInfo struct {
	Status       string
	CanResume    bool
	ErrorCode    string
	ErrorMessage string
}

// runtimeWire is the route's answer as upstream's ConversationRuntimeInfo
// model writes it (runtime_error is null or {code, message}).
type runtimeWire struct {
	RuntimeStatus string `json:"runtime_status"`
	CanResume     bool   `json:"can_resume"`
	RuntimeError  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"runtime_error"`
}

// ErrNoRuntimeRoute is what Runtime returns for a server that does not say
// (no such route, or a runtime status it does not name): the caller shows
// nothing rather than guessing.
var ErrNoRuntimeRoute = errors.New("the server reports no runtime status")

// Runtime asks the server about the conversation's runtime. A server
// without the route (older than 1.48, or not running conversations in
// runtimes of their own) answers 404 or 405: ErrNoRuntimeRoute.
func (c *Client) Runtime(ctx context.Context, id string) (*RuntimeInfo, error) {
	var w runtimeWire
	err := c.getJSON(ctx, conversationRoute(id, "/runtime"), nil, &w)
	var he *HTTPError
	if errors.As(err, &he) && (he.Status == 404 || he.Status == 405) {
		return nil, ErrNoRuntimeRoute
	}
	if err != nil {
		return nil, err
	}
	r := &RuntimeInfo{Status: model.CapBytes(sanitize.Line(w.RuntimeStatus), model.MaxStatusBytes), CanResume: w.CanResume}
	if r.Status == "" {
		return nil, ErrNoRuntimeRoute
	}
	if w.RuntimeError != nil {
		r.ErrorCode = model.CapBytes(redactKey(w.RuntimeError.Code, c.key), model.MaxStatusBytes)
		r.ErrorMessage = model.CapBytes(redactKey(w.RuntimeError.Message, c.key), 300)
	}
	return r, nil
}

// Model is the runtime as model.Runtime says it.
func (r *RuntimeInfo) Model() model.Runtime {
	return model.Runtime{Status: r.Status, CanResume: r.CanResume, Error: joinNonEmpty(r.ErrorCode, r.ErrorMessage)}
}

// Words is the runtime's status as the header and the fleet say it:
// "runtime missing (can resume)", "runtime error: CODE: message". A missing
// runtime is stated as missing, never as an error or an end.
func (r *RuntimeInfo) Words() string {
	if r == nil {
		return ""
	}
	return r.Model().Words()
}

// Hopeless reports whether the runtime will not come back by waiting: gone
// or failed, and the server says it cannot resume it.
func (r *RuntimeInfo) Hopeless() bool {
	return r != nil && !r.CanResume && r.Model().Troubled()
}

// joinNonEmpty joins the non-empty parts with ": ".
func joinNonEmpty(parts ...string) string {
	out := ""
	for _, p := range parts {
		if p == "" {
			continue
		}
		if out != "" {
			out += ": "
		}
		out += p
	}
	return out
}

// runtimeWords asks the runtime route for the words a 1011 close is ended
// with, and whether the runtime is beyond waiting for. A server without the
// route, or one that does not answer, adds nothing.
func (w *watcher) runtimeWords(ctx context.Context) (string, bool) {
	info, _ := w.c.Conversation(ctx, w.id)
	r := w.reportRuntime(ctx, info)
	if r == nil {
		if info != nil && !info.ArchivedAt.IsZero() {
			// An archived conversation's runtime is not started (upstream
			// _container answers 409, the socket 1011): waiting is vain.
			return "; the conversation is archived", true
		}
		return "", false
	}
	words := r.Words()
	if info != nil && !info.ArchivedAt.IsZero() {
		return "; the conversation is archived, the server says: " + words, true
	}
	return "; the server says: " + words, r.Hopeless()
}

// reportRuntime asks the runtime route (unless the server showed it has
// none) and queues what it and info (nil: not known) say of the runtime and
// the archive, when that changed. It returns the route's answer, nil when
// there is none. It is safe off the watch goroutine.
func (w *watcher) reportRuntime(ctx context.Context, info *ConversationInfo) *RuntimeInfo {
	var r *RuntimeInfo
	if !w.noRuntimeRoute.Load() {
		var err error
		r, err = w.c.Runtime(ctx, w.id)
		switch {
		case errors.Is(err, ErrNoRuntimeRoute):
			w.noRuntimeRoute.Store(true)
		case err != nil:
			w.c.log.Debug("runtime status unavailable", "conversation", w.id, "error", redactKey(err.Error(), w.c.key))
		}
	}
	var m model.Runtime
	if r != nil {
		m = r.Model()
	}
	if info != nil {
		m.Archived = info.ArchivedAt
	}
	if m != (model.Runtime{}) || w.q.saidRuntime() {
		w.q.runtime(m)
	}
	return r
}
