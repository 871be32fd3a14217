package otel

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"go.opentelemetry.io/otel/trace"
)

// TraceID is the trace id of a conversation: the conversation id itself
// when it is a uuid (with or without dashes), so a user can paste one into
// the tracing backend's search; otherwise the first 16 bytes of its SHA-256.
func TraceID(conversationID string) trace.TraceID {
	var id trace.TraceID
	if b, err := hex.DecodeString(strings.ReplaceAll(conversationID, "-", "")); err == nil && len(b) == len(id) {
		copy(id[:], b)
		if id.IsValid() {
			return id
		}
	}
	sum := sha256.Sum256([]byte("ohwatch/trace/" + conversationID))
	copy(id[:], sum[:])
	if !id.IsValid() { // an all-zero id is invalid; vanishingly rare
		id[15] = 1
	}
	return id
}

// spanID derives a span id from the key naming a span, given in parts so
// that no caller builds the string ("tool:", <event id>).
func spanID(key ...string) trace.SpanID {
	var id trace.SpanID
	var buf [128]byte // most keys fit: hashed without an allocation
	b := append(buf[:0], "ohwatch/span/"...)
	for _, k := range key {
		b = append(b, k...)
	}
	sum := sha256.Sum256(b)
	copy(id[:], sum[:])
	if !id.IsValid() {
		id[7] = 1
	}
	return id
}
