package session

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"

	"ohwatch/internal/redact"
)

// redactingWriter removes secrets, in every form they may be echoed in
// (redact.Text), from everything written through it: stdout, stderr and
// --log of a command that holds a key. Text is redacted a line at a time,
// so a secret is never split between two writes; an unfinished line waits
// for its end, or for Flush.
type redactingWriter struct {
	mu      sync.Mutex
	w       io.Writer
	secrets *redact.Secrets
	pending []byte
}

// maxPendingLine bounds an unfinished line held back: past it, the line is
// redacted and written as it stands.
const maxPendingLine = 1 << 20

// Write implements io.Writer.
func (r *redactingWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pending = append(r.pending, p...)
	cut := bytes.LastIndexByte(r.pending, '\n') + 1
	if cut == 0 && len(r.pending) < maxPendingLine {
		return len(p), nil
	}
	if cut == 0 {
		cut = len(r.pending)
	}
	if err := r.emit(r.pending[:cut]); err != nil {
		return 0, err
	}
	r.pending = append(r.pending[:0], r.pending[cut:]...)
	return len(p), nil
}

// Flush writes what is held back of an unfinished line.
func (r *redactingWriter) Flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.pending) == 0 {
		return nil
	}
	err := r.emit(r.pending)
	r.pending = r.pending[:0]
	return err
}

// underlying is the writer r redacts into: the terminal, when its
// colour profile is asked.
func (r *redactingWriter) underlying() io.Writer { return r.w }

// emit writes b redacted.
func (r *redactingWriter) emit(b []byte) error {
	_, err := io.WriteString(r.w, r.secrets.Redact(string(b)))
	return err
}

// WithSecrets returns an environment whose stdout and stderr redact the
// secrets, and the function that flushes them (call it before returning
// the exit code). The set may grow after this call.
func (env *Env) WithSecrets(secrets *redact.Secrets) (*Env, func()) {
	out := &redactingWriter{w: env.Stdout, secrets: secrets}
	errw := &redactingWriter{w: env.Stderr, secrets: secrets}
	e := *env
	e.Stdout, e.Stderr = out, errw
	return &e, func() { out.Flush(); errw.Flush() }
}

// OpenLog returns the slog logger writing to path (--log), or one that
// discards when path is "". Secrets, when set, are redacted from it. The
// returned close function is always safe to call.
func OpenLog(path string, secrets *redact.Secrets) (*slog.Logger, func(), error) {
	if path == "" {
		return slog.New(slog.DiscardHandler), func() {}, nil
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("--log: %w", err)
	}
	var w io.Writer = f
	closeLog := func() { f.Close() }
	if secrets != nil {
		rw := &redactingWriter{w: f, secrets: secrets}
		w, closeLog = rw, func() { rw.Flush(); f.Close() }
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug})), closeLog, nil
}
