// Package otel turns a conversation's event log into OpenTelemetry traces,
// so a team can look at its agents in the tracing backend it already runs
// (Jaeger, Tempo, Honeycomb, Langfuse, Phoenix: anything that speaks OTLP).
//
// It is the only package that imports the OpenTelemetry SDK: model, reducer
// and tui stay free of it. The trace follows the GenAI semantic conventions
// of OpenTelemetry semantic conventions v1.41.0 (go.opentelemetry.io/otel
// semconv/v1.41.0: agent spans, model spans, tool spans; status
// "Development"):
//
//	invoke_agent {agent}        one root per conversation, first to last event
//	├── user_turn               a user message to the next terminal or waiting status
//	│   ├── chat {model}        one LLM call, placed by the reducer's metrics attribution
//	│   │   └── execute_tool {tool}   an action to its observation
//	│   └── ...
//	└── ...
//
// The trace id is the conversation id (a uuid is used as it is, anything
// else is hashed), and every span id is derived from the ids of the events
// that make it, so exporting the same conversation twice, or watching it
// live and replaying it later, gives the same trace rather than a duplicate.
//
// Numbers come only from the reducer: a conversation that reported no
// metrics gets chat spans for none of its calls, never invented tokens or
// costs. Every string that reaches an attribute is sanitised and capped;
// tool arguments and outputs are copied only when asked (Options.Content).
//
// Two ways out: Export writes OTLP/JSON (what a collector's otlpjsonfile
// receiver reads, and what an OTLP/HTTP endpoint accepts with
// Content-Type application/json), and a Sink sends spans live as they end,
// through a bounded queue that drops (and counts) rather than slow the watch.
//
// # In detail
//
// A conversation as OpenTelemetry traces (GenAI semantic conventions
// v1.41.0): a `Builder` turns each event, with the States before and after
// it, into spans of its own compact form (`span.go`: the ids it derives from
// the conversation and event ids, the events' times, attributes as
// `attribute.KeyValue`s; no SDK tracer: a trace rebuilt from events needs
// none of its locking, clock, sampling or snapshots).
//
// `convert.go` turns ended spans into exactly the OTLP messages the SDK's
// exporter would (held to it by a test over every recording), in slabs each
// batch reuses.
//
// `Export` encodes those as OTLP/JSON (directly, the bytes protojson would
// write, ids in hex; a field the direct encoder does not know goes through
// protojson, the request's envelope written by hand, so the collector
// service package is not imported for it).
//
// A `Sink` queues spans live (bounded, counting, pooled) and has the SDK's
// `otlptracehttp`/`otlptracegrpc` client send them in batches. The only
// package that imports the OpenTelemetry SDK.
//
// It imports `model`, `reducer`.
package otel
