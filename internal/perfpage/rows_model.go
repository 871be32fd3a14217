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
			cmd:    "go test -run '^$' -bench Sanitize -benchtime 2s ./model",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkSanitize/clean", "MB/s", num(2, 1e3))+" GB/s") + " clean, " + r.span("BenchmarkSanitize/hostile", "MB/s", num(2, 1e3)) + " GB/s hostile"
			},
		},
		{
			figure: "redact the key in every form from output of `watch`/`cloud`",
			target: "—",
			cmd:    "go test -run '^$' -bench 'BenchmarkRedact$' -benchmem ./model",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkRedact/clean", "MB/s", num(2, 1e3))+" GB/s") + " of clean text, " + r.span("BenchmarkRedact/echoed", "MB/s", num(2, 1e3)) + " GB/s with the key echoed"
			},
		},
		{
			figure: "redact a fleet of 64+ sandboxes, each with its own key (each owner, session, client or fleet feed, prepares its keys once)",
			target: "—",
			cmd:    "go test -run '^$' -bench RedactFleet ./model",
			cell: func(r *results) string {
				return "about " + bold(r.span("BenchmarkRedactFleet", "ns/op", num(1, 1e3))+" µs") + " a line, " + bold(r.span("BenchmarkRedactFleet", "allocs/op", num(0, 1))) + " allocations"
			},
		},
		{
			figure: "look up an event's kind (a fixed hash with linear probing over `model/kinds.go`'s table)",
			target: "—",
			cmd:    "go test -run '^$' -bench KindIndex ./model",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkKindIndex", "ns/op", num(0, 1))+" ns") + " to look up every kind's name and two others"
			},
		},
		{
			figure: "decode the stats: a generated 100k-event conversation's `base_state.json` (16.6 MB, nearly all of it the cost, latency and token-usage lists of 33k LLM calls, read before a load's first screen), and the stats updates of 20k generated events (a third of them)",
			target: "—",
			cmd:    "go test -run '^$' -bench 'BaseStateGenerated|StatsGenerated' -benchmem ./model",
			cell: func(r *results) string {
				return "base state " + bold(r.span("BenchmarkDecodeBaseStateGenerated", "ns/op", sig(1e6))+" ms") + ", the stats updates " + r.span("BenchmarkDecodeStatsGenerated", "ns/op", sig(1e6)) + " ms"
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
	}
}
