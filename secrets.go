package main

import (
	"bytes"
	"io"
	"sync"

	"ohwatch/model"
)

// redactingWriter removes secrets, in every form they may be echoed in
// (model.Redact), from everything written through it: stdout, stderr and
// --log of a command that holds a key. Text is redacted a line at a time,
// so a secret is never split between two writes; an unfinished line waits
// for its end, or for Flush.
type redactingWriter struct {
	mu      sync.Mutex
	w       io.Writer
	secrets *model.Secrets
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

// emit writes b redacted.
func (r *redactingWriter) emit(b []byte) error {
	_, err := io.WriteString(r.w, r.secrets.Redact(string(b)))
	return err
}

// withSecrets returns an environment whose stdout and stderr redact the
// secrets, and the function that flushes them (call it before returning
// the exit code). The set may grow after this call.
func (env *environment) withSecrets(secrets *model.Secrets) (*environment, func()) {
	out := &redactingWriter{w: env.stdout, secrets: secrets}
	errw := &redactingWriter{w: env.stderr, secrets: secrets}
	e := *env
	e.stdout, e.stderr = out, errw
	return &e, func() { out.Flush(); errw.Flush() }
}
