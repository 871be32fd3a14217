package cloud

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
)

// Target is where to watch a Cloud conversation: hand it to the
// agent-server client.
type Target struct {
	// AgentServerURL is the sandbox's agent-server base URL (https://host[/prefix]).
	AgentServerURL string
	// ConversationID is the conversation id as Cloud gives it (32 hex digits).
	ConversationID string
	// SessionKey is the agent-server session key. It is a secret: String
	// and LogValue leave it out.
	SessionKey string
}

// String describes the target without its session key.
func (t Target) String() string {
	key := "no session key"
	if t.SessionKey != "" {
		key = "session key set"
	}
	return fmt.Sprintf("conversation %s at %s (%s)", t.ConversationID, t.AgentServerURL, key)
}

// GoString keeps %#v as safe as %v.
func (t Target) GoString() string { return t.String() }

// LogValue keeps structured logs as safe as %v.
func (t Target) LogValue() slog.Value { return slog.StringValue(t.String()) }

// Session is one use of Cloud: it starts or attaches to a conversation and,
// on Close, deletes the sandbox it started. Its methods are safe to call
// from several goroutines, so a signal handler may Close while Start runs.
type Session struct {
	cfg     Config
	api     *api
	log     *slog.Logger
	secrets *redactor

	closeMu sync.Mutex // serialises Close

	// olderEvents is set once the app server answered 404 on the newer
	// stored-events route: it serves only the older one.
	olderEvents atomic.Bool

	parentsMu sync.Mutex        // guards parents
	parents   map[string]string // conversation id → parent its start task names, "" none (fillParents)

	mu           sync.Mutex // guards the fields below
	sandboxID    string     // the sandbox this session started, "" if none
	deleted      bool
	lastProgress string
}

// New checks cfg and prepares a session; it sends no request.
func New(cfg Config) (*Session, error) {
	cfg = cfg.withDefaults()
	base, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	secrets := &redactor{}
	secrets.add(cfg.APIKey)
	return &Session{
		cfg:     cfg,
		api:     newAPI(base, cfg.APIKey, cfg.HTTPClient, log, secrets),
		log:     log,
		secrets: secrets,
	}, nil
}

// Open attaches to Config.ConversationID when it is set, and otherwise
// starts a new sandbox and conversation.
func (s *Session) Open(ctx context.Context) (Target, error) {
	if id := strings.TrimSpace(s.cfg.ConversationID); id != "" {
		return s.Attach(ctx, id)
	}
	return s.Start(ctx)
}

// Start creates a sandbox, waits until it runs, starts a conversation in it
// with Config.Message and waits for the conversation to be ready. The
// sandbox belongs to the session from the moment Cloud names it, so Close
// deletes it even when Start fails half-way. A session starts at most one
// sandbox.
func (s *Session) Start(ctx context.Context) (Target, error) {
	if s.SandboxID() != "" {
		return Target{}, errors.New("cloud: this session already started a sandbox; use a new Session")
	}
	s.progress("creating sandbox")
	created, err := s.createSandbox(ctx)
	if err != nil {
		return Target{}, err
	}
	s.mu.Lock()
	s.sandboxID = created.ID
	s.mu.Unlock()
	s.log.Info("cloud sandbox created", "sandbox", s.secrets.clean(created.ID))
	if err := ctx.Err(); err != nil {
		return Target{}, err
	}

	sb, err := s.waitSandboxRunning(ctx, created.ID)
	if err != nil {
		return Target{}, err
	}
	task, err := s.startConversation(ctx, sb.ID)
	if err != nil {
		return Target{}, err
	}
	convID := str(task.AppConversationID)
	agentURL := sb.agentServerURL()
	if agentURL == "" {
		agentURL = str(task.AgentServerURL)
	}
	key := str(sb.SessionAPIKey)
	if agentURL == "" || key == "" {
		// The sandbox did not say; the conversation record does.
		conv, err := s.getConversation(ctx, convID)
		if err != nil {
			return Target{}, err
		}
		if agentURL == "" {
			agentURL = agentServerFromConversationURL(str(conv.ConversationURL))
		}
		if key == "" {
			key = str(conv.SessionAPIKey)
		}
	}
	return s.target(agentURL, convID, key)
}

// Attach finds an existing Cloud conversation and returns where to watch
// it. A paused sandbox is resumed and a starting one awaited; the session
// never deletes a sandbox it did not start.
func (s *Session) Attach(ctx context.Context, conversationID string) (Target, error) {
	conversationID = strings.TrimSpace(conversationID)
	if conversationID == "" {
		return Target{}, errors.New("cloud: attach: no conversation id")
	}
	s.progress("reading conversation")
	conv, err := s.getConversation(ctx, conversationID)
	if err != nil {
		return Target{}, err
	}
	var sb *sandboxInfo
	switch conv.SandboxStatus {
	case sandboxRunning:
	case sandboxPaused, sandboxStarting:
		if conv.SandboxStatus == sandboxPaused {
			s.progress("resuming sandbox")
			if err := s.resumeSandbox(ctx, conv.SandboxID); err != nil {
				return Target{}, err
			}
		}
		if sb, err = s.waitSandboxRunning(ctx, conv.SandboxID); err != nil {
			return Target{}, err
		}
		// A paused sandbox has no conversation_url; read it again now.
		if conv, err = s.getConversation(ctx, conversationID); err != nil {
			return Target{}, err
		}
	default:
		return Target{}, fmt.Errorf("cloud: the sandbox of conversation %s is %s: %w",
			s.secrets.clean(conversationID), s.secrets.clean(conv.SandboxStatus), ErrSandbox)
	}

	agentURL := agentServerFromConversationURL(str(conv.ConversationURL))
	key := str(conv.SessionAPIKey)
	if (agentURL == "" || key == "") && sb == nil {
		if sb, err = s.getSandbox(ctx, conv.SandboxID); err != nil {
			return Target{}, err
		}
	}
	if sb != nil {
		if agentURL == "" {
			agentURL = sb.agentServerURL()
		}
		if key == "" {
			key = str(sb.SessionAPIKey)
		}
	}
	id := conv.ID
	if id == "" {
		id = conversationID
	}
	return s.target(agentURL, id, key)
}

// target checks and assembles the result of Start and Attach.
func (s *Session) target(agentURL, conversationID, key string) (Target, error) {
	if agentURL == "" {
		return Target{}, errors.New("cloud: Cloud gave no agent-server URL for the conversation (no AGENT_SERVER exposed URL, no conversation_url)")
	}
	checked, err := s.checkAgentServerURL(agentURL)
	if err != nil {
		return Target{}, err
	}
	if !isConversationID(conversationID) {
		// The id becomes a path segment of the agent-server URLs.
		return Target{}, fmt.Errorf("cloud: Cloud gave %q as the conversation id, which is not a UUID", s.secrets.clean(conversationID))
	}
	s.secrets.add(key)
	t := Target{AgentServerURL: checked, ConversationID: conversationID, SessionKey: key}
	s.progress("conversation " + s.secrets.clean(conversationID) + " ready")
	s.log.Info("cloud conversation ready", "target", t)
	return t, nil
}

// SandboxID returns the id of the sandbox this session started, or "" when
// it started none (attach mode, or before Start got that far). With Keep,
// it tells the user which sandbox is left running.
func (s *Session) SandboxID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sandboxID
}

// Close deletes the sandbox this session started, unless Config.Keep. It
// ignores the cancellation of ctx (its values still apply) and is bounded
// by Config.CleanupTimeout instead, so `defer sess.Close(ctx)` cleans up
// even after Ctrl-C cancelled ctx. Calling it again after a successful
// delete does nothing; after a failed one it tries again.
func (s *Session) Close(ctx context.Context) error {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	s.mu.Lock()
	rawID, done := s.sandboxID, s.deleted
	s.mu.Unlock()
	if rawID == "" || done {
		return nil
	}
	id := s.secrets.clean(rawID)
	if s.cfg.Keep {
		s.markDeleted(rawID) // nothing more to do, ever
		s.progress("sandbox " + id + " kept")
		s.log.Info("cloud sandbox kept", "sandbox", id)
		return nil
	}
	s.progress("deleting sandbox " + id)
	delCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.CleanupTimeout)
	defer cancel()
	if err := s.deleteSandbox(delCtx, rawID); err != nil {
		s.log.Warn("cloud sandbox delete failed", "sandbox", id, "err", err.Error())
		return fmt.Errorf("cloud: deleting sandbox %s: %w", id, err)
	}
	s.markDeleted(rawID)
	s.progress("sandbox " + id + " deleted")
	s.log.Info("cloud sandbox deleted", "sandbox", id)
	return nil
}

// markDeleted records that the sandbox id needs no more cleanup.
func (s *Session) markDeleted(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sandboxID == id {
		s.deleted = true
	}
}

// progress reports a step to Config.OnProgress. The callback runs without
// any lock held, so it may call back into the session.
func (s *Session) progress(stage string) {
	s.mu.Lock()
	s.lastProgress = stage
	s.mu.Unlock()
	if s.cfg.OnProgress != nil {
		s.cfg.OnProgress(stage)
	}
}

// retrying reports a transient failure during a poll, once per distinct
// failure, and logs it.
func (s *Session) retrying(err error) {
	s.log.Warn("cloud poll failed, retrying", "err", err.Error())
	s.progressOnChange("retrying after: " + err.Error())
}

// progressOnChange reports a polled status only when it differs from the
// last report, so a long wait shows one line per change, not per poll.
func (s *Session) progressOnChange(stage string) {
	s.mu.Lock()
	same := stage == s.lastProgress
	s.mu.Unlock()
	if !same {
		s.progress(stage)
	}
}

// isConversationID reports whether id is a UUID, with or without dashes:
// the only form that is safe to put in an agent-server URL path.
func isConversationID(id string) bool {
	digits := 0
	for _, r := range id {
		switch {
		case r == '-':
		case '0' <= r && r <= '9', 'a' <= r && r <= 'f', 'A' <= r && r <= 'F':
			digits++
		default:
			return false
		}
	}
	return digits == 32 && len(id) <= 36
}
