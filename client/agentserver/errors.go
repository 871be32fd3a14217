package agentserver

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"ohwatch/internal/redact"
	"ohwatch/internal/sanitize"
)

// Sentinel errors let callers map failures to exit codes with errors.Is
// without parsing messages.
var (
	// ErrAuth means the server rejected the session key (HTTP 401/403,
	// WebSocket close 4001).
	ErrAuth = errors.New("authentication rejected")
	// ErrNotFound means the conversation (or route) does not exist (HTTP
	// 404, WebSocket close 4004).
	ErrNotFound = errors.New("not found")
	// ErrConflict means the server refused an action in the current state
	// (HTTP 409, for example /run while already running).
	ErrConflict = errors.New("conflict")
	// ErrConnect means the server could not be reached at all.
	ErrConnect = errors.New("could not connect")
)

// Final failure codes carried by model.ConnState.Code, for exit codes.
const (
	CodeAuth     = "auth"
	CodeNotFound = "not_found"
	CodeConnect  = "connect"
	// CodeClosed: the server closed the socket for good (1008, or 1011
	// past its retries), with its reason.
	CodeClosed = "closed"
)

// bodyExcerptLimit caps how much of an error response body is quoted: it is
// there to help a human, not to carry a document.
const bodyExcerptLimit = 200

// HTTPError is a REST call that got a non-2xx answer. It names the method,
// the route (path only, never a query or credentials) and the status, and
// quotes a sanitised excerpt of the body.
type HTTPError struct {
	Method string
	Route  string
	Status int
	Body   string
}

// Error implements error.
func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("%s %s: %d %s", e.Method, e.Route, e.Status, http.StatusText(e.Status))
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// Is makes errors.Is(err, ErrAuth) and errors.Is(err, ErrNotFound) work on
// the statuses that mean them.
func (e *HTTPError) Is(target error) bool {
	switch target {
	case ErrAuth:
		return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	case ErrConflict:
		return e.Status == http.StatusConflict
	}
	return false
}

// connectError wraps a transport failure (refused, reset, DNS) so that
// errors.Is(err, ErrConnect) holds while the message keeps the cause. The
// cause is the inner net error, never the *url.Error that quotes the URL.
type connectError struct {
	route string
	err   error
}

// Error implements error.
func (e *connectError) Error() string {
	return fmt.Sprintf("%s: %v: %v", e.route, ErrConnect, e.err)
}

// Unwrap lets errors.Is see both ErrConnect and the cause.
func (e *connectError) Unwrap() []error { return []error{ErrConnect, e.err} }

// redact removes the secret from s in every form it may be echoed in
// (redact.Text: another case, URL- or JSON-escaped, in part) and makes
// the result safe to print on one line. Servers sometimes echo request
// headers in error pages; the key must not travel on in our messages. It
// redacts again after sanitising, which can join the halves of a secret
// split by a control sequence.
func redactKey(s, secret string) string {
	return redact.Text(sanitize.Line(redact.Text(s, secret)), secret)
}

// excerpt cuts an error body to a readable length (in runes) after
// redaction.
func excerpt(body []byte, secret string) string {
	s := redactKey(strings.TrimSpace(string(body)), secret)
	r := []rune(s)
	if len(r) > bodyExcerptLimit {
		s = string(r[:bodyExcerptLimit]) + "…"
	}
	return s
}
