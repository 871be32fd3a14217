package main

// modelRows returns the rows of decoding, sanitising and redacting events.
func modelRows() []row {
	return []row{
		{
			figure: "decode",
			target: "—",
			cmd:    "go test -run '^$' -bench 'DecodeGenerated$|RedecodeGenerated' -benchmem ./model",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkDecodeGenerated", "MB/s", num(0, 1))+" MB/s") + " (" + r.span("BenchmarkRedecodeGenerated", "MB/s", num(0, 1)) + " MB/s without validation) on generated events"
			},
		},
		{
			figure: "sanitise",
			target: "—",
			cmd:    "go test -run '^$' -bench BenchmarkText -benchtime 2s ./internal/sanitize",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkText/clean", "MB/s", num(2, 1e3))+" GB/s") + " clean, " + r.span("BenchmarkText/hostile", "MB/s", num(2, 1e3)) + " GB/s hostile"
			},
		},
		{
			figure: "redact the key in every form from output of `watch`/`cloud`",
			target: "—",
			cmd:    "go test -run '^$' -bench 'BenchmarkRedact$' -benchmem ./internal/redact",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkRedact/clean", "MB/s", num(2, 1e3))+" GB/s") + " of clean text, " + r.span("BenchmarkRedact/echoed", "MB/s", num(2, 1e3)) + " GB/s with the key echoed"
			},
		},
		{
			figure: "redact a fleet of 64+ sandboxes, each with its own key (each owner, session, client or fleet feed, prepares its keys once; no cache shared between owners)",
			target: "—",
			cmd:    "go test -run '^$' -bench RedactFleet ./internal/redact",
			cell: func(r *results) string {
				return "about " + bold(r.span("BenchmarkRedactFleet", "ns/op", num(1, 1e3))+" µs") + " a line, " + bold(r.span("BenchmarkRedactFleet", "allocs/op", num(0, 1))) + " allocations"
			},
		},
		{
			figure: "look up an event's kind (a Go map over `model/kinds.go`'s table: adding a row cannot fail)",
			target: "—",
			cmd:    "go test -run '^$' -bench 'KindIndex$' ./model",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkKindIndex", "ns/op", num(0, 1))+" ns") + " to look up every kind's name and two others"
			},
		},
		{
			figure: "decode the stats: a generated 100k-event conversation's `base_state.json` (16.6 MB, nearly all of it the cost, latency and token-usage lists of 33k LLM calls, read beside the directory listing before a load's first screen), streamed as loads read it and in memory, and the stats updates of 20k generated events (a third of them)",
			target: "—",
			cmd:    "go test -run '^$' -bench 'BaseStateGenerated|StatsGenerated' -benchmem ./model",
			cell: func(r *results) string {
				return "base state " + bold(r.span("BenchmarkReadBaseStateGenerated", "ns/op", sig(1e6))+" ms") + " streamed, " + r.span("BenchmarkDecodeBaseStateGenerated", "ns/op", sig(1e6)) + " ms in memory, the stats updates " + r.span("BenchmarkDecodeStatsGenerated", "ns/op", sig(1e6)) + " ms"
			},
		},
		{
			figure: "decode every event an agent-server sends with the session key cut out of it first (20k generated events, 29 MB), vs decoding alone",
			target: "—",
			cmd:    "go test -run '^$' -bench 'DecodeGenerated$|RedactThenDecodeGenerated' -benchmem ./model",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkRedactThenDecodeGenerated", "ns/op", sig(1e6)) + " ms vs " + r.span("BenchmarkDecodeGenerated", "ns/op", sig(1e6)) + " ms")
			},
		},
		{
			figure: "read events by hand (`model.Decode` over `internal/jsonx`) vs encoding/json and gjson reading only the envelope and first fields (20k generated events, 29 MB)",
			target: "—",
			cmd:    "go test -run '^$' -bench DecodeRace -count 3 ./model",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkDecodeRace/hand-written-full", "MB/s", num(0, 1))+" MB/s") + " vs " + r.span("BenchmarkDecodeRace/encoding-json-minimal", "MB/s", num(0, 1)) + " and " + r.span("BenchmarkDecodeRace/gjson-minimal", "MB/s", num(0, 1)) + " MB/s"
			},
		},
		{
			figure: "headless JSON lines by hand vs `json.Marshal`",
			target: "—",
			cmd:    "go test -run '^$' -bench EventJSONRace -count 3 ./headless",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkEventJSONRace/hand-written", "MB/s", num(0, 1))+" MB/s") + " vs " + r.span("BenchmarkEventJSONRace/encoding-json", "MB/s", num(0, 1)) + " MB/s"
			},
		},
		{
			figure: "OTLP/JSON by hand (`otel/otlpjson.go`, a span's conversion included) vs protojson, 12.5k spans of a generated 20k-event conversation",
			target: "—",
			cmd:    "go test -run '^$' -bench OTLPJSONRace -count 3 ./otel",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkOTLPJSONRace/direct", "ns/span", sig(1e3))+" µs") + " vs " + r.span("BenchmarkOTLPJSONRace/protojson", "ns/span", sig(1e3)) + " µs a span"
			},
		},
		{
			figure: "compact raw events before they are made terminal-safe, by hand vs `json.Compact`",
			target: "—",
			cmd:    "go test -run '^$' -bench CompactRace -count 3 ./internal/sanitize",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkCompactRace/hand-written", "MB/s", num(0, 1))+" MB/s") + " vs " + r.span("BenchmarkCompactRace/encoding-json", "MB/s", num(0, 1)) + " MB/s"
			},
		},
	}
}
