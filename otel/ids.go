package otel

import (
	"context"
	"crypto/rand"
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

// spanID derives a span id from the key naming a span ("tool:<event id>").
func spanID(key string) trace.SpanID {
	var id trace.SpanID
	var buf [128]byte // most keys fit: hashed without an allocation
	sum := sha256.Sum256(append(append(buf[:0], "ohwatch/span/"...), key...))
	copy(id[:], sum[:])
	if !id.IsValid() {
		id[7] = 1
	}
	return id
}

// idKey is the context key under which the builder hands the ids of the
// span it is about to start to the id generator.
type idKey struct{}

type spanIDs struct {
	trace trace.TraceID
	span  trace.SpanID
}

// withIDs returns ctx carrying the ids the next span started with it gets.
func withIDs(ctx context.Context, t trace.TraceID, s trace.SpanID) context.Context {
	return context.WithValue(ctx, idKey{}, spanIDs{t, s})
}

// idGenerator gives each span the ids the builder chose for it (the SDK
// asks its IDGenerator with the context the span is started with). A span
// started without chosen ids gets random ones.
type idGenerator struct{}

func (idGenerator) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	if ids, ok := ctx.Value(idKey{}).(spanIDs); ok {
		return ids.trace, ids.span
	}
	var t trace.TraceID
	var s trace.SpanID
	_, _ = rand.Read(t[:])
	_, _ = rand.Read(s[:])
	return t, s
}

func (g idGenerator) NewSpanID(ctx context.Context, _ trace.TraceID) trace.SpanID {
	_, s := g.NewIDs(ctx)
	return s
}
