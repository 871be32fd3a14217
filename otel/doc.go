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
package otel
