package agentserver

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

	"ohwatch/internal/redact"
	"ohwatch/internal/sanitize"
)

// sessionHeader is the agent-server's authentication header (protocol §9).
const sessionHeader = "X-Session-API-Key"

// maxResponseBytes bounds a REST response body, the same bound as one
// socket frame: a page holds at most 100 events, and a page too large for
// it is asked for again in smaller pages (see eachPage), so only a single
// event over the bound fails. Reading without a bound let a hostile answer
// take gigabytes.
const maxResponseBytes = socketReadLimit

// ErrTooLarge means a REST answer was larger than the client accepts.
var ErrTooLarge = errors.New("response too large")

// Client talks to one agent-server. It is safe for concurrent use.
type Client struct {
	base *url.URL // scheme, host and optional path prefix; no query, no credentials
	key  string
	// secrets holds key with its forms prepared once, to redact every
	// event this client reads.
	secrets *redact.Secrets
	http    *http.Client
	// sockets is http on a transport whose connections can gather their
	// reads (socketHTTP).
	sockets *http.Client
	log     *slog.Logger
	// timeout bounds each REST request beside the caller's context.
	timeout time.Duration
	// maxBody bounds a response body (maxResponseBytes; tests lower it).
	maxBody int64
	// maxPages bounds the pages one paged search may take (maxSearchPages;
	// tests lower it).
	maxPages int
	// readLimit bounds one socket message (socketReadLimit; tests lower it).
	readLimit int64
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient makes the client use hc for REST calls and the WebSocket
// handshake (for custom transports or TLS settings).
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		if hc != nil {
			c.http = hc
		}
	}
}

// WithLogger sends the client's diagnostics to l (by default they are
// discarded: a TUI must never log to the terminal).
func WithLogger(l *slog.Logger) Option {
	return func(c *Client) {
		if l != nil {
			c.log = l
		}
	}
}

// New returns a client for the agent-server at baseURL (http or https, with
// an optional path prefix such as a proxy route). sessionKey may be empty
// for servers without authentication. The base URL must not carry
// credentials or a query: secrets never travel in URLs.
func New(baseURL, sessionKey string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil {
		// The *url.Error quotes the whole URL, which may carry a key the
		// user pasted by mistake; keep only the reason.
		return nil, fmt.Errorf("agent-server URL: %w", unwrapURLError(err))
	}
	switch u.Scheme {
	case "http", "https":
	case "ws":
		u.Scheme = "http"
	case "wss":
		u.Scheme = "https"
	default:
		return nil, fmt.Errorf("agent-server URL: scheme must be http or https, not %q", u.Scheme)
	}
	if u.Host == "" {
		return nil, errors.New("agent-server URL: missing host")
	}
	if u.User != nil {
		return nil, errors.New("agent-server URL: must not contain credentials (pass the session key separately)")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("agent-server URL: must not contain a query or fragment")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	c := &Client{
		base:      u,
		key:       sessionKey,
		secrets:   new(redact.Secrets),
		http:      &http.Client{},
		log:       slog.New(slog.DiscardHandler),
		timeout:   30 * time.Second,
		maxBody:   maxResponseBytes,
		maxPages:  maxSearchPages,
		readLimit: socketReadLimit,
	}
	c.secrets.Add(sessionKey)
	for _, o := range opts {
		o(c)
	}
	c.http = guardRedirects(c.http, u)
	c.sockets = socketHTTP(c.http)
	return c, nil
}

// maxRedirects bounds the redirects one request may follow.
const maxRedirects = 5

// guardRedirects returns a copy of hc that follows a redirect only to the
// base URL's own host, and never from https down to http. Go forwards
// custom headers such as X-Session-API-Key to any host a redirect names, so
// without this guard a redirecting proxy could receive the session key.
// The caller's client is left untouched; its own redirect policy, if any,
// still applies after the guard.
func guardRedirects(hc *http.Client, base *url.URL) *http.Client {
	guarded := *hc
	inner := hc.CheckRedirect
	guarded.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		if req.URL.Host != base.Host || (base.Scheme == "https" && req.URL.Scheme != "https") {
			return fmt.Errorf("refusing a redirect to another host or to plain http (%s): it would carry the session key",
				sanitize.Line(req.URL.Scheme+"://"+req.URL.Host))
		}
		if inner != nil {
			return inner(req, via)
		}
		return nil
	}
	return &guarded
}

// BaseURL returns the server's base URL as given (without a trailing slash).
func (c *Client) BaseURL() string { return c.base.String() }

// endpoint builds the URL of a route below the base URL. route is an
// already-escaped path beginning with "/".
func (c *Client) endpoint(route string, q url.Values) *url.URL {
	u := *c.base
	u.Path = c.base.Path + route
	u.RawQuery = q.Encode()
	return &u
}

// conversationRoute is the escaped path of a conversation below /api.
func conversationRoute(id, suffix string) string {
	return "/api/conversations/" + url.PathEscape(id) + suffix
}

// getJSON GETs a route and decodes its JSON answer into out.
func (c *Client) getJSON(ctx context.Context, route string, q url.Values, out any) error {
	return c.do(ctx, http.MethodGet, route, q, nil, out)
}

// postJSON POSTs in (may be nil) as JSON and decodes the answer into out
// (may be nil).
func (c *Client) postJSON(ctx context.Context, route string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return fmt.Errorf("POST %s: %w", route, err)
		}
	}
	return c.do(ctx, http.MethodPost, route, nil, body, out)
}

// do performs one REST call. Errors name the method and route, never the
// full URL (whose host is fine but whose query might one day not be) and
// never the key.
func (c *Client) do(ctx context.Context, method, route string, q url.Values, body []byte, out any) error {
	if hasDotSegment(route) {
		// An id of "." or ".." would send the key to another route.
		return fmt.Errorf("%s %s: refused: a conversation id is not one path segment", method, sanitize.Line(route))
	}
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.endpoint(route, q).String(), rd)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, route, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set(sessionHeader, c.key)
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("%s %s: %w", method, route, ctxErr)
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		c.log.Debug("agent-server request failed", "method", method, "route", route, "error", redactKey(err.Error(), c.key))
		return &connectError{route: method + " " + route, err: errors.New(redactKey(err.Error(), c.key))}
	}
	defer resp.Body.Close()
	if resp.ContentLength > c.maxBody {
		return fmt.Errorf("%s %s: %w (%d bytes, over the %s limit)", method, route, ErrTooLarge, resp.ContentLength, byteSize(c.maxBody))
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
	c.log.Debug("agent-server request", "method", method, "route", route, "status", resp.StatusCode,
		"bytes", len(data), "elapsed", time.Since(start))
	if err != nil {
		return fmt.Errorf("%s %s: reading the response: %w", method, route, err)
	}
	if int64(len(data)) > c.maxBody {
		return fmt.Errorf("%s %s: %w (over the %s limit)", method, route, ErrTooLarge, byteSize(c.maxBody))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &HTTPError{Method: method, Route: route, Status: resp.StatusCode, Body: excerpt(data, c.key)}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not the expected JSON: %v", method, route, redactKey(err.Error(), c.key))
	}
	return nil
}

// hasDotSegment reports whether a route holds a "." or ".." segment, which
// a server or a proxy resolves to another route.
func hasDotSegment(route string) bool {
	for seg := range strings.SplitSeq(route, "/") {
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}
