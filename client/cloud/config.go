package cloud

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"ohwatch/internal/sanitize"
)

// Defaults, chosen to match the upstream watch_terminal_state example.
const (
	DefaultBaseURL      = "https://app.all-hands.dev"
	DefaultMessage      = "Say hello in one short sentence, then stop."
	DefaultPollTimeout  = 180 * time.Second
	DefaultPollInterval = 2 * time.Second
	// DefaultCleanupTimeout bounds Close, which runs detached from the
	// caller's cancellation and so needs its own limit.
	DefaultCleanupTimeout = 30 * time.Second
	// requestTimeout bounds one HTTP exchange when no client is supplied.
	requestTimeout = 30 * time.Second
)

// Config says how to reach OpenHands Cloud and what to do there. The zero
// value of every field but APIKey means its default.
type Config struct {
	// APIKey is the Cloud API key (OH_API_KEY). It is a secret: it is sent
	// only in request headers and redacted from every String form.
	APIKey string
	// BaseURL is the Cloud app server (OH_API_BASE), DefaultBaseURL if empty.
	BaseURL string
	// SandboxSpecID selects the runtime image; empty lets Cloud choose.
	SandboxSpecID string
	// Message is the initial user message of a started conversation.
	// Empty starts the conversation without one.
	Message string
	// ConversationID, when set, makes Open attach to that existing Cloud
	// conversation instead of starting a sandbox.
	ConversationID string
	// PollTimeout bounds each wait: for a sandbox to run, for a start task.
	PollTimeout time.Duration
	// PollInterval is the pause between two polls.
	PollInterval time.Duration
	// CleanupTimeout bounds Close's delete request.
	CleanupTimeout time.Duration
	// StoreTimeout bounds AwaitStored, the wait for Cloud to store every
	// event seen live before a started sandbox is deleted.
	StoreTimeout time.Duration
	// Keep leaves a started sandbox running instead of deleting it on Close.
	Keep bool
	// Logger receives request and lifecycle records; nil discards them.
	// No record carries a secret.
	Logger *slog.Logger
	// OnProgress, when set, is told each step as it happens ("sandbox
	// STARTING", "start task WORKING", …) so a screen can show it. It is
	// called from the goroutine that called Start, Attach or Close.
	OnProgress func(stage string)
	// HTTPClient is the client to use; nil means one with a 30 s timeout.
	// Redirects to another host are refused either way, because they would
	// carry the API key with them.
	HTTPClient *http.Client
}

// ConfigFromEnv reads the environment variables of the upstream example:
// OH_API_KEY, OH_API_BASE, SANDBOX_SPEC_ID and POLL_TIMEOUT (seconds, or a
// Go duration such as "3m"). Unset variables leave the defaults; flags
// bound with BindFlags then override what the environment gave.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	cfg := Config{
		APIKey:        strings.TrimSpace(getenv("OH_API_KEY")),
		BaseURL:       strings.TrimSpace(getenv("OH_API_BASE")),
		SandboxSpecID: strings.TrimSpace(getenv("SANDBOX_SPEC_ID")),
		Message:       DefaultMessage,
	}
	if v := strings.TrimSpace(getenv("POLL_TIMEOUT")); v != "" {
		d, err := parseSeconds(v)
		if err != nil {
			return cfg, fmt.Errorf("cloud: POLL_TIMEOUT: %w", err)
		}
		cfg.PollTimeout = d
	}
	return cfg.withDefaults(), nil
}

// parseSeconds accepts a whole number of seconds, as the upstream example
// does, or a Go duration.
func parseSeconds(s string) (time.Duration, error) {
	if n, err := strconv.Atoi(s); err == nil {
		if n <= 0 {
			return 0, fmt.Errorf("%q: must be positive", s)
		}
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q: want seconds (180) or a duration (3m)", s)
	}
	return d, nil
}

// withDefaults fills every zero field that has a default.
func (c Config) withDefaults() Config {
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL
	}
	if c.PollTimeout <= 0 {
		c.PollTimeout = DefaultPollTimeout
	}
	if c.StoreTimeout <= 0 {
		c.StoreTimeout = DefaultStoreTimeout
	}
	if c.PollInterval <= 0 {
		c.PollInterval = DefaultPollInterval
	}
	if c.CleanupTimeout <= 0 {
		c.CleanupTimeout = DefaultCleanupTimeout
	}
	return c
}

// validate checks what New needs and returns the parsed base URL.
func (c Config) validate() (*url.URL, error) {
	if c.APIKey == "" {
		return nil, errors.New("cloud: no API key: set OH_API_KEY or --api-key")
	}
	u, err := url.Parse(strings.TrimRight(c.BaseURL, "/"))
	if err != nil {
		// Quote neither the URL nor the *url.Error (which does): a URL
		// that fails to parse may still hold credentials.
		return nil, errors.New("cloud: base URL: not a valid URL; want https://host")
	}
	if u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("cloud: base URL %q: want https://host", shownURL(u))
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("cloud: base URL %s: no credentials, query or fragment allowed", shownURL(u))
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return nil, fmt.Errorf("cloud: base URL %s: refusing to send the API key over plain http to a non-loopback host; use https", u)
	}
	return u, nil
}

// shownURL is u fit for an error message: without user information, query
// or fragment (any of which may hold a key: Redacted keeps a user name,
// and a key pasted as https://KEY@host is one) and on one line.
func shownURL(u *url.URL) string {
	v := *u
	v.User, v.RawQuery, v.ForceQuery, v.Fragment, v.RawFragment = nil, "", false, "", ""
	return sanitize.Line(v.String())
}

// isLoopback reports whether host names this machine, the one place plain
// HTTP cannot expose the API key to the network.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// String describes the configuration with the API key redacted, so that
// printing a Config by accident leaks nothing.
func (c Config) String() string {
	key := "unset"
	if c.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("cloud.Config{BaseURL: %q, APIKey: %s, SandboxSpecID: %q, ConversationID: %q, Keep: %t, PollTimeout: %s, PollInterval: %s}",
		c.BaseURL, key, c.SandboxSpecID, c.ConversationID, c.Keep, c.PollTimeout, c.PollInterval)
}

// GoString keeps %#v as safe as %v.
func (c Config) GoString() string { return c.String() }

// LogValue keeps structured logs as safe as %v.
func (c Config) LogValue() slog.Value { return slog.StringValue(c.String()) }
