package main

// liveRows returns the rows of live streams: the agent-server client, serve and the OTLP exporter.
func liveRows() []row {
	return []row{
		{
			figure: "live ingest over loopback: serve → WebSocket → decode → reduce → batched consumer",
			target: "≥ 20k events/s",
			cmd:    "go test -run '^$' -bench 'LiveIngest$' -count 3 ./client/agentserver",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkLiveIngest/session", "events/s", num(0, 1e3)) + "k events/s")
			},
		},
		{
			figure: "memory over a 200k-event stream",
			target: "flat",
			cmd:    "go test -run '^$' -bench IngestMemory200k -benchtime 1x ./client/agentserver",
			cell: func(r *results) string {
				return "heap " + r.span("BenchmarkIngestMemory200k", "heap-before-MB", num(0, 1)) + " MB before, " + bold(r.span("BenchmarkIngestMemory200k", "heap-q1-MB", num(0, 1))+" / "+r.span("BenchmarkIngestMemory200k", "heap-q2-MB", num(0, 1))+" / "+r.span("BenchmarkIngestMemory200k", "heap-q3-MB", num(0, 1))+" / "+r.span("BenchmarkIngestMemory200k", "heap-q4-MB", num(0, 1))+" MB") + " at each quarter"
			},
		},
		{
			figure: "reconnect to resumed-live on loopback",
			target: "< 100 ms + backoff",
			cmd:    "go test -run '^$' -bench ReconnectToLive ./client/agentserver",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkReconnectToLive", "ns/op", sig(1e6))+" ms") + " including a 1 ms backoff"
			},
		},
		{
			figure: "`serve --speed 0` of a generated 200k-event recording (33 MB `base_state.json`) to one live client over a socket",
			target: "≥ 50k events/s",
			cmd:    "go test -run '^$' -bench ServeSpeed0 -benchtime 1x -count 2 ./serve",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkServeSpeed0", "events/s", num(0, 1e3))+"k events/s") + " of wall time"
			},
		},
		{
			figure: "`serve --loop`: one restart of a generated 10k-event recording (14.6 MB of events): new ids, references and timestamps, decoded again",
			target: "—",
			cmd:    "go test -run '^$' -bench Relabel10k -benchmem -benchtime 20x ./serve",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkRelabel10k", "ns/op", sig(1e6)) + " ms")
			},
		},
		{
			figure: "live `--otlp` on top of a live ingest at 20k events/s (a server in its own process plays a generated 20k-event conversation at 20k events/s → WebSocket → decode → log), process CPU of the client",
			target: "≤ 10% more CPU",
			cmd:    "go test -run '^$' -bench 'LiveIngestOTLP' -benchtime 12x -count 2 ./otel",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkLiveIngestOTLP", "added-%", num(0, 1))+"%") + " more CPU"
			},
		},
		{
			figure: "events held behind a missing parent (a frame the socket lost, until the reconcile brings it: under load a whole run waits), then delivered",
			target: "cost per event independent of how many wait",
			cmd:    "go test -run '^$' -bench HeldBehindAMissingParent -benchtime 20x ./client/agentserver",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkHeldBehindAMissingParent/1000", "ns/event", num(1, 1e3))+" µs") + " an event with 1,000 held, " + bold(r.span("BenchmarkHeldBehindAMissingParent/10000", "ns/event", num(1, 1e3))+" µs") + " with 10,000"
			},
		},
		{
			figure: "backend down for a whole 100k-event run",
			target: "exit code and output unchanged; memory bounded",
			cmd:    "go test -run '^$' -bench BackendDown -benchtime 1x -v ./otel",
			cell: func(r *results) string {
				return "the heap grew " + bold(r.span("BenchmarkBackendDown", "MB-growth", num(0, 1))+" MB") + " over the run"
			},
		},
	}
}
