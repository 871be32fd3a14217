package main

import (
	"flag"
	"io"
	"path/filepath"

	"ohwatch/client/files"
	"ohwatch/otel"
	"ohwatch/reducer"
)

// This file wires OpenTelemetry into the commands: `export --format otlp`,
// and the --otlp flags of the commands that show a conversation.

// bindOTLPContent binds --otlp-content, which copies tool arguments and
// outputs (sanitised, capped) into the spans.
func bindOTLPContent(fs *flag.FlagSet) *bool {
	return fs.Bool("otlp-content", false, "with otlp: include tool-call arguments and outputs in the spans (sanitised, capped at 4 KiB each)")
}

// traceKey is the id a conversation's trace is derived from: its
// conversation id, else the name of its recording.
func traceKey(id, path string) string {
	if id != "" {
		return id
	}
	return filepath.Base(filepath.Clean(path))
}

// serviceName is OTEL_SERVICE_NAME, or ohwatch.
func serviceName(env *environment) string {
	if s := env.getenv("OTEL_SERVICE_NAME"); s != "" {
		return s
	}
	return otel.DefaultServiceName
}

// exportOTLP writes a recording as OTLP/JSON.
func exportOTLP(w io.Writer, env *environment, conv *files.Conversation, log *reducer.Log, path string, content bool) error {
	return otel.Export(w, log, traceKey(conv.ID, path), titleOf(conv.Title, conv.ID, path),
		serviceName(env), version, otel.Options{Content: content})
}
