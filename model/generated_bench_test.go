package model_test

import (
	"bytes"
	"testing"

	"ohwatch/gen"
	"ohwatch/internal/redact"
	"ohwatch/model"
)

// BenchmarkDecodeGenerated decodes a long generated conversation: the
// realistic mix of sizes and kinds a 100k-event log is made of.
func BenchmarkDecodeGenerated(b *testing.B) { benchDecodeGenerated(b, model.Decode) }

// BenchmarkRedecodeGenerated is BenchmarkDecodeGenerated for a log
// rebuilding events from bytes it validated when they came.
func BenchmarkRedecodeGenerated(b *testing.B) { benchDecodeGenerated(b, model.Redecode) }

// BenchmarkRedactThenDecodeGenerated is BenchmarkDecodeGenerated as the
// agent-server client decodes: each event's raw bytes redacted of a
// 30-character session key first, through the set of secrets the client
// prepares once (redact.Secrets.RedactJSON). Compared with
// BenchmarkDecodeGenerated it is what redacting costs the live path.
func BenchmarkRedactThenDecodeGenerated(b *testing.B) {
	var secrets redact.Secrets
	secrets.Add("sk-oh-5f1b4a7e9d3c2b1a0f9e8d7c")
	benchDecodeGenerated(b, func(raw []byte) (model.Event, error) { return model.Decode(secrets.RedactJSON(raw)) })
}

func benchDecodeGenerated(b *testing.B, decode func([]byte) (model.Event, error)) {
	benchDecodeSome(b, func([]byte) bool { return true }, decode)
}

// benchDecodeSome decodes the events of a generated 20k-event
// conversation that keep says to.
func benchDecodeSome(b *testing.B, keep func(raw []byte) bool, decode func([]byte) (model.Event, error)) {
	var events [][]byte
	var total int64
	for raw := range gen.Events(gen.Options{Events: 20000, Seed: 1}) {
		if keep(raw) {
			events = append(events, raw)
			total += int64(len(raw))
		}
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, raw := range events {
			if _, err := decode(raw); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkDecodeGeneratedResident reports the heap a decoded generated log
// holds beyond its raw bytes, per raw byte (see BenchmarkDecodeResident).
func BenchmarkDecodeGeneratedResident(b *testing.B) {
	var events [][]byte
	for raw := range gen.Events(gen.Options{Events: 20000, Seed: 2}) {
		events = append(events, raw)
	}
	model.MeasureResident(b, events)
}

// BenchmarkDecodeBaseStateGenerated decodes the base_state.json of a
// generated 100k-event conversation: 16 MB, nearly all of it the cost,
// latency and token-usage lists of every LLM call, read before a load
// shows its first screen.
func BenchmarkDecodeBaseStateGenerated(b *testing.B) {
	raw := gen.BaseState(gen.Options{Events: 100000, Seed: 1})
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := model.DecodeBaseState(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeStatsGenerated decodes only the stats updates of a
// generated conversation: a third of its events, each a snapshot of the
// usages' metrics.
func BenchmarkDecodeStatsGenerated(b *testing.B) {
	isStats := func(raw []byte) bool { return bytes.Contains(raw, []byte(`"key":"stats"`)) }
	benchDecodeSome(b, isStats, model.Decode)
}
