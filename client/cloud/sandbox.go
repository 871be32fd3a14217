package cloud

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// createSandbox starts a sandbox (POST /api/v1/sandboxes; the spec id is a
// query parameter in the schema). The request is not cancelled with ctx: a
// sandbox whose creation reply was thrown away could never be deleted. It
// is still bounded by the HTTP client's timeout and by CleanupTimeout.
func (s *Session) createSandbox(ctx context.Context) (*sandboxInfo, error) {
	q := url.Values{}
	if s.cfg.SandboxSpecID != "" {
		q.Set("sandbox_spec_id", s.cfg.SandboxSpecID)
	}
	createCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.CleanupTimeout)
	defer cancel()
	var sb sandboxInfo
	if err := s.api.do(createCtx, http.MethodPost, "/api/v1/sandboxes", q, nil, &sb); err != nil {
		step := "creating a sandbox"
		if s.cfg.SandboxSpecID != "" {
			step += fmt.Sprintf(" with --sandbox-spec-id %q", s.secrets.clean(s.cfg.SandboxSpecID))
		}
		return nil, &stepError{step: step, err: err}
	}
	if sb.ID == "" {
		return nil, errors.New("cloud: POST /api/v1/sandboxes: the reply has no sandbox id")
	}
	s.secrets.add(str(sb.SessionAPIKey))
	return &sb, nil
}

// getSandbox reads one sandbox (GET /api/v1/sandboxes?id=). The batch
// endpoint answers null for a sandbox it does not know; that is ErrSandbox.
func (s *Session) getSandbox(ctx context.Context, id string) (*sandboxInfo, error) {
	var batch []*sandboxInfo
	if err := s.api.do(ctx, http.MethodGet, "/api/v1/sandboxes", url.Values{"id": {id}}, nil, &batch); err != nil {
		return nil, err
	}
	if len(batch) == 0 || batch[0] == nil {
		return nil, fmt.Errorf("cloud: sandbox %s not found: %w", s.secrets.clean(id), ErrSandbox)
	}
	s.secrets.add(str(batch[0].SessionAPIKey))
	return batch[0], nil
}

// waitSandboxRunning polls the sandbox until it is RUNNING. ERROR and
// MISSING end the wait with ErrSandbox and the runtime's status detail.
func (s *Session) waitSandboxRunning(ctx context.Context, id string) (*sandboxInfo, error) {
	var running *sandboxInfo
	err := poll(ctx, s.cfg.PollTimeout, s.cfg.PollInterval, "sandbox "+s.secrets.clean(id), s.retrying,
		func(ctx context.Context) (string, bool, error) {
			sb, err := s.getSandbox(ctx, id)
			if err != nil {
				return "", false, err
			}
			status := s.secrets.clean(sb.Status)
			s.progressOnChange("sandbox " + status)
			switch sb.Status {
			case sandboxRunning:
				running = sb
				return status, true, nil
			case sandboxError, sandboxMissing:
				msg := fmt.Sprintf("cloud: sandbox %s is %s", s.secrets.clean(id), status)
				if d := s.secrets.clean(str(sb.StatusDetail)); d != "" {
					msg += ": " + d
				}
				return status, false, fmt.Errorf("%s: %w", msg, ErrSandbox)
			}
			return status, false, nil
		})
	return running, err
}

// resumeSandbox wakes a paused sandbox (POST /api/v1/sandboxes/{id}/resume).
func (s *Session) resumeSandbox(ctx context.Context, id string) error {
	return s.api.do(ctx, http.MethodPost, "/api/v1/sandboxes/"+url.PathEscape(id)+"/resume", nil, nil, nil)
}

// deleteSandbox deletes a sandbox. The schema declares the route as
// /api/v1/sandboxes/{id} with a required sandbox_id query parameter, so the
// id goes in both, as in the upstream example. A 404 means it is already
// gone, which is what deleting wanted.
func (s *Session) deleteSandbox(ctx context.Context, id string) error {
	err := s.api.do(ctx, http.MethodDelete, "/api/v1/sandboxes/"+url.PathEscape(id), url.Values{"sandbox_id": {id}}, nil, nil)
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound {
		return nil
	}
	return err
}
