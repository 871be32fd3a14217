package cloud

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"ohwatch/model"
)

// conversationTitle names the conversations this package starts, so they
// are recognisable in the Cloud UI.
const conversationTitle = "ohwatch"

// startConversation starts a conversation in the sandbox (POST
// /api/v1/app-conversations) and polls its start task
// (GET /api/v1/app-conversations/start-tasks?ids=) until READY. ERROR ends
// the wait with ErrStartTask and the task's detail.
func (s *Session) startConversation(ctx context.Context, sandboxID string) (*startTask, error) {
	req := startRequest{SandboxID: sandboxID, Title: conversationTitle}
	if s.cfg.Message != "" {
		msg := model.NewUserMessage(s.cfg.Message)
		req.InitialMessage = &msg
	}
	s.progress("starting conversation")
	var task startTask
	if err := s.api.do(ctx, http.MethodPost, "/api/v1/app-conversations", nil, req, &task); err != nil {
		return nil, err
	}
	if task.ID == "" {
		return nil, errors.New("cloud: POST /api/v1/app-conversations: the reply has no start task id")
	}
	current := &task
	err := poll(ctx, s.cfg.PollTimeout, s.cfg.PollInterval, "conversation start task", s.retrying,
		func(ctx context.Context) (string, bool, error) {
			if current == nil {
				var batch []*startTask
				q := url.Values{"ids": {task.ID}}
				if err := s.api.do(ctx, http.MethodGet, "/api/v1/app-conversations/start-tasks", q, nil, &batch); err != nil {
					return "", false, err
				}
				if len(batch) == 0 || batch[0] == nil {
					return "", false, fmt.Errorf("cloud: start task %s not found: %w", s.secrets.clean(task.ID), ErrStartTask)
				}
				current = batch[0]
			}
			t := current
			current = nil // the next round polls
			status := s.secrets.clean(t.Status)
			s.progressOnChange("start task " + status)
			switch t.Status {
			case taskReady:
				if str(t.AppConversationID) == "" {
					return status, false, fmt.Errorf("cloud: start task %s is READY without a conversation id: %w", s.secrets.clean(t.ID), ErrStartTask)
				}
				task = *t
				return status, true, nil
			case taskError:
				// The detail's first line says what went wrong; the rest
				// (a URL to look status codes up) would be a dump.
				if d := s.secrets.clean(firstLine(str(t.Detail))); d != "" {
					return status, false, fmt.Errorf("cloud: %w: %s", ErrStartTask, d)
				}
				return status, false, fmt.Errorf("cloud: %w", ErrStartTask)
			}
			return status, false, nil
		})
	if err != nil {
		return nil, err
	}
	return &task, nil
}

// getConversation reads one conversation (GET /api/v1/app-conversations?ids=).
// The batch endpoint answers null for an unknown id: that is ErrNotFound.
func (s *Session) getConversation(ctx context.Context, id string) (*appConversation, error) {
	var batch []*appConversation
	if err := s.api.do(ctx, http.MethodGet, "/api/v1/app-conversations", url.Values{"ids": {id}}, nil, &batch); err != nil {
		return nil, err
	}
	if len(batch) == 0 || batch[0] == nil {
		return nil, fmt.Errorf("cloud: conversation %s: %w", s.secrets.clean(id), ErrNotFound)
	}
	s.secrets.add(str(batch[0].SessionAPIKey))
	return batch[0], nil
}

// agentServerFromConversationURL turns a conversation_url
// (https://<runtime>/api/conversations/<id>) into the agent-server base URL:
// everything before /api/conversations, which keeps any path prefix.
func agentServerFromConversationURL(raw string) string {
	if raw == "" {
		return ""
	}
	if i := strings.LastIndex(raw, "/api/conversations"); i >= 0 {
		return raw[:i]
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// checkAgentServerURL makes sure a server-supplied agent-server URL is an
// absolute http(s) URL without credentials, query or fragment, and returns
// it without a trailing slash.
func (s *Session) checkAgentServerURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("cloud: the agent-server URL %q is not an http(s) base URL", s.secrets.clean(raw))
	}
	return strings.TrimRight(u.String(), "/"), nil
}
