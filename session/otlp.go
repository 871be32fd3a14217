package session

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"time"

	"ohwatch/client/files"
	"ohwatch/model"
	"ohwatch/otel"
	"ohwatch/reducer"
)

// This file wires OpenTelemetry into sessions: `export --format otlp`, and
// the --otlp tee of the commands that show a conversation.

// traceKey is the id a conversation's trace is derived from: its
// conversation id, else the name of its recording.
func traceKey(id, path string) string {
	if id != "" {
		return id
	}
	return filepath.Base(filepath.Clean(path))
}

// serviceName is OTEL_SERVICE_NAME, or ohwatch.
func serviceName(env *Env) string {
	if s := env.Getenv("OTEL_SERVICE_NAME"); s != "" {
		return s
	}
	return otel.DefaultServiceName
}

// ExportOTLP writes a recording as OTLP/JSON.
func ExportOTLP(w io.Writer, env *Env, conv *files.Conversation, log *reducer.Log, p reducer.Path, path string, content bool) error {
	return otel.Export(w, log, traceKey(conv.ID, path), serviceName(env), env.Version, otel.Options{Content: content, Path: p})
}

// otlpShutdown bounds how long the end of a watch waits for the last
// spans to be sent (much less when the backend was already failing).
const otlpShutdown = 5 * time.Second

// teeOTLP sends the session's spans as its events pass. Each batch's spans
// are built (and queued for the sink's own goroutine to send) before the
// batch is handed on, so that this work never runs beside the TUI's Update
// of the same batch: it costs the batch a millisecond or so of latency,
// never frame time, and the backend is never waited for. The returned finish ends
// the trace (unfinished when the conversation had not reached a terminal
// state), waits briefly for the last spans and prints what was sent and
// dropped to stderr. ok is false (after printing why) when the exporter
// cannot be made: a bad endpoint or protocol is a usage error.
func teeOTLP(ctx context.Context, env *Env, o OTLP, s *conversation, tui bool) (finish func(), ok bool) {
	sink, ok := newOTLPSink(env, o)
	if !ok {
		return nil, false
	}
	live := sink.Follow(s.traceID, s.log.Initial(), s.recording)
	in := s.feed
	out := make(chan model.Batch)
	s.feed = out
	stop := make(chan struct{})
	done := make(chan struct{})
	// The TUI shows lost spans among the header's warnings, checked once
	// a second; headless output stays exactly what it is without --otlp.
	go func() {
		defer close(done)
		defer close(out)
		var tick <-chan time.Time
		if tui {
			t := time.NewTicker(time.Second)
			defer t.Stop()
			tick = t.C
		}
		var warned int64
		for {
			var b model.Batch
			var more bool
			select {
			case b, more = <-in:
				if !more {
					return
				}
			case <-tick:
			case <-stop:
				return
			}
			if tick != nil {
				if w, n := dropWarning(sink.Counts().Dropped, warned); w != "" {
					b.Warnings, warned = append(slices.Clip(b.Warnings), w), n
				}
				if len(b.Events) == 0 && len(b.Warnings) == 0 && b.Conn == nil && b.Progress == nil {
					continue
				}
			}
			live.Add(b.Events)
			select {
			case out <- b:
			case <-stop:
				return
			}
		}
	}()
	return func() {
		close(stop)
		<-done
		live.End()
		shutdownOTLP(ctx, env, sink)
	}, true
}

// newOTLPSink makes the sink of --otlp; ok is false (after printing why)
// when the exporter cannot be made.
func newOTLPSink(env *Env, o OTLP) (*otel.Sink, bool) {
	sink, err := otel.NewSink(otel.Config{
		Endpoint: o.Endpoint, Getenv: env.Getenv, ServiceName: serviceName(env), Version: env.Version,
		Options: otel.Options{Content: o.Content},
	})
	if err != nil {
		fmt.Fprintf(env.Stderr, "ohwatch: --otlp: %v\n", err)
		return nil, false
	}
	return sink, true
}

// shutdownOTLP waits briefly for the last spans and prints what was sent
// and dropped to stderr.
func shutdownOTLP(ctx context.Context, env *Env, sink *otel.Sink) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), otlpShutdown)
	defer cancel()
	_ = sink.Shutdown(sctx)
	c := sink.Counts()
	fmt.Fprintf(env.Stderr, "otlp: %d spans sent to %s, %d dropped\n", c.Sent, sink.Endpoint(), c.Dropped)
}

// teeFleetOTLP sends every conversation of a fleet to the tracing backend
// as its own trace (its id derived from the conversation's id, as `watch`
// derives it), on a goroutine between the sources and the fleet: each
// slice is handed on after its events went to their traces. finish ends
// every trace (a conversation still running as an unfinished one) and
// reports as --otlp does.
func teeFleetOTLP(ctx context.Context, env *Env, o OTLP, in <-chan []model.FleetUpdate) (out <-chan []model.FleetUpdate, finish func(), ok bool) {
	sink, ok := newOTLPSink(env, o)
	if !ok {
		return nil, nil, false
	}
	lives := map[model.ConversationRef]*otel.Live{}
	fwd := make(chan []model.FleetUpdate)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		defer close(fwd)
		for {
			var ups []model.FleetUpdate
			select {
			case u, more := <-in:
				if !more {
					return
				}
				ups = u
			case <-stop:
				return
			}
			for i := range ups {
				u := &ups[i]
				if u.Ref.ID == "" || len(u.Batch.Events) == 0 {
					continue
				}
				live := lives[u.Ref]
				if live == nil {
					live = sink.Follow(u.Ref.ID, reducer.Initial(nil, 0), false)
					lives[u.Ref] = live
				}
				live.Add(u.Batch.Events)
			}
			select {
			case fwd <- ups:
			case <-stop:
				return
			}
		}
	}()
	return fwd, func() {
		close(stop)
		<-done
		for _, live := range lives {
			live.End()
		}
		shutdownOTLP(ctx, env, sink)
	}, true
}

// dropWarning returns a warning when the spans dropped reach the next
// power of ten above the last one warned of (1, 10, 100, ...), so that a
// backend that stays down adds a few warnings, not one a second.
func dropWarning(dropped, warned int64) (string, int64) {
	next := int64(1)
	for next <= warned {
		next *= 10
	}
	if dropped < next {
		return "", warned
	}
	return fmt.Sprintf("otlp: %d spans dropped: the tracing backend is not taking them", dropped), dropped
}
