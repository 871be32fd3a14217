package cloud

import (
	"errors"
	"fmt"
	"strings"
)

// The kinds of failure a caller may want to tell apart; test them with
// errors.Is. Every error this package returns that matches one of them also
// carries a message fit to show the user.
var (
	// ErrAuth means Cloud rejected the API key (HTTP 401 or 403).
	ErrAuth = errors.New("OpenHands Cloud rejected the API key")
	// ErrTimeout means a sandbox or start task did not settle within
	// Config.PollTimeout.
	ErrTimeout = errors.New("timed out waiting for OpenHands Cloud")
	// ErrSandbox means the sandbox reached ERROR or MISSING, or vanished.
	ErrSandbox = errors.New("sandbox failed")
	// ErrStartTask means the conversation start task reached ERROR.
	ErrStartTask = errors.New("conversation start failed")
	// ErrNotFound means the conversation to attach to does not exist.
	ErrNotFound = errors.New("conversation not found")
)

// APIError is an unexpected HTTP status from the Cloud API. Its Detail is
// the server's explanation, sanitised and with every known secret redacted.
type APIError struct {
	Method string
	Path   string // the request path, without the query
	Status int
	Detail string
}

// Error implements error.
func (e *APIError) Error() string {
	msg := fmt.Sprintf("cloud: %s %s: HTTP %d", e.Method, e.Path, e.Status)
	if e.Status == 401 || e.Status == 403 {
		msg += ": " + ErrAuth.Error() + " (check OH_API_KEY or --api-key)"
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Is makes errors.Is(err, ErrAuth) true for authentication failures.
func (e *APIError) Is(target error) bool {
	return target == ErrAuth && (e.Status == 401 || e.Status == 403)
}

// stepError says which step of the user's command Cloud refused, before
// the request and the answer: "creating a sandbox … failed: POST …: HTTP
// 500: Internal Server Error", one line.
type stepError struct {
	step string
	err  error
}

// Error implements error.
func (e *stepError) Error() string {
	return "cloud: " + e.step + " failed: " + strings.TrimPrefix(e.err.Error(), "cloud: ")
}

// Unwrap keeps errors.Is and errors.As working through the step.
func (e *stepError) Unwrap() error { return e.err }
