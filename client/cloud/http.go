package cloud

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"ohwatch/internal/redact"
	"ohwatch/internal/sanitize"
)

// maxResponseBytes caps how much of one response is read: Cloud replies
// are small, and a misbehaving server must not exhaust memory.
const maxResponseBytes = 8 << 20

// api sends authenticated requests to the Cloud app server and turns
// failures into errors free of secrets.
type api struct {
	base    *url.URL
	key     string
	http    *http.Client
	log     *slog.Logger
	secrets *redactor
}

// newAPI builds the client. It refuses redirects that leave the base host
// or downgrade to plain http: a redirect carries the key headers along.
func newAPI(base *url.URL, key string, client *http.Client, log *slog.Logger, secrets *redactor) *api {
	c := http.Client{Timeout: requestTimeout}
	if client != nil {
		c = *client
	}
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("too many redirects")
		}
		if req.URL.Host != base.Host || (base.Scheme == "https" && req.URL.Scheme != "https") {
			return fmt.Errorf("refusing a redirect to %s://%s: it would carry the API key", req.URL.Scheme, req.URL.Host)
		}
		return nil
	}
	return &api{base: base, key: key, http: &c, log: log, secrets: secrets}
}

// do sends one request and decodes a 2xx JSON reply into out (when non-nil).
// Any other status becomes an *APIError.
func (a *api) do(ctx context.Context, method, path string, query url.Values, body, out any) error {
	u := *a.base
	u.Path = strings.TrimRight(a.base.Path, "/") + path
	u.RawQuery = query.Encode()

	var reader io.Reader
	if body != nil {
		buf, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("cloud: %s %s: %w", method, path, err)
		}
		reader = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), reader)
	if err != nil {
		return fmt.Errorf("cloud: %s %s: %w", method, path, err)
	}
	// The schema names no single scheme the live service honours for API
	// keys, so send the key the ways Cloud documents: the header of the
	// upstream examples, Bearer (the Cloud API guide), and the schema's
	// APIKeyHeader. All go to the one configured host only.
	req.Header.Set("X-Session-API-Key", a.key)
	req.Header.Set("Authorization", "Bearer "+a.key)
	req.Header.Set("X-Access-Token", a.key)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}

	start := time.Now()
	resp, err := a.http.Do(req)
	if err != nil {
		a.log.Debug("cloud request failed", "method", method, "path", path, "err", a.secrets.redact(err.Error()))
		return a.transportError(method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	a.log.Debug("cloud request", "method", method, "path", path, "status", resp.StatusCode, "elapsed", time.Since(start).Round(time.Millisecond))
	if err != nil {
		return a.transportError(method, path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// Only an excerpt of an error body is ever shown: its cut end is
		// of no consequence.
		return &APIError{Method: method, Path: path, Status: resp.StatusCode, Detail: a.detail(data[:min(len(data), maxResponseBytes)])}
	}
	if len(data) > maxResponseBytes {
		return fmt.Errorf("cloud: %s %s: response too large (over %d bytes)", method, path, maxResponseBytes)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("cloud: %s %s: reply is not the expected JSON: %s", method, path, a.secrets.clean(err.Error()))
	}
	return nil
}

// transportError wraps a network failure, keeping context errors matchable
// with errors.Is and secrets out of the text.
func (a *api) transportError(method, path string, err error) error {
	switch {
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("cloud: %s %s: %w", method, path, context.Canceled)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("cloud: %s %s: %w", method, path, context.DeadlineExceeded)
	}
	// clean, not only redact: the text may quote a URL taken from a
	// redirect's Location header, which the server chose.
	return &networkError{msg: fmt.Sprintf("cloud: %s %s: %s", method, path, a.secrets.clean(err.Error()))}
}

// networkError is a request that got no HTTP reply (refused, reset, timed
// out). Its text is already free of secrets.
type networkError struct{ msg string }

// Error implements error.
func (e *networkError) Error() string { return e.msg }

// transient reports whether err may go away by itself — a network failure,
// a 5xx or a 429 — so that a poll should try again rather than give up.
// Cancellation and the other 4xx are final.
func transient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var netErr *networkError
	if errors.As(err, &netErr) {
		return true
	}
	var apiErr *APIError
	return errors.As(err, &apiErr) && (apiErr.Status >= 500 || apiErr.Status == http.StatusTooManyRequests)
}

// detail extracts the explanation of an error reply: FastAPI's
// {"detail": "text"} or {"detail": [{"loc": …, "msg": "…"}]}, else the body.
func (a *api) detail(data []byte) string {
	var reply struct {
		Detail json.RawMessage `json:"detail"`
	}
	text := string(data)
	if json.Unmarshal(data, &reply) == nil && len(reply.Detail) > 0 {
		var s string
		var items []struct {
			Loc []any  `json:"loc"`
			Msg string `json:"msg"`
		}
		switch {
		case json.Unmarshal(reply.Detail, &s) == nil:
			text = s
		case json.Unmarshal(reply.Detail, &items) == nil && len(items) > 0:
			parts := make([]string, 0, len(items))
			for _, it := range items {
				parts = append(parts, fmt.Sprintf("%v: %s", it.Loc, it.Msg))
			}
			text = strings.Join(parts, "; ")
		default:
			text = string(reply.Detail)
		}
	} else {
		// A plain-text body (an unhandled exception's "Internal Server
		// Error", an HTML page from a proxy): its first line says what
		// it is; the rest would be a dump.
		text = firstLine(text)
	}
	return a.secrets.clean(text)
}

// redactor removes known secrets from text before it is logged, wrapped in
// an error or shown, in every form a server may echo them (redact.Text).
// It learns the session keys Cloud hands out as it goes.
type redactor struct {
	redact.Secrets
}

// add registers a secret; empty strings are ignored.
func (r *redactor) add(secret string) { r.Add(secret) }

// redact replaces every known secret in s with a marker.
func (r *redactor) redact(s string) string { return r.Redact(s) }

// maxDetail caps server-supplied text in errors and progress lines.
const maxDetail = 300

// clean makes server-supplied text safe to show on one line: secrets
// redacted, control sequences removed, length capped.
func (r *redactor) clean(s string) string {
	// Redact on both sides of sanitising: removing an escape sequence
	// could join the halves of a secret the first pass did not see.
	s = strings.TrimSpace(r.redact(sanitize.Line(r.redact(s))))
	if len(s) > maxDetail {
		cut := maxDetail
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// firstLine is the first line of text that is not blank.
func firstLine(text string) string {
	for line := range strings.Lines(text) {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}
