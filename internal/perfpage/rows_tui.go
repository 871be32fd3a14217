package main

// tuiRows returns the rows of the conversation view's frames, keys and search.
func tuiRows() []row {
	return []row{
		{
			figure: "`View()` of the main screen at 160x48, every colour profile",
			target: "≤ 4 ms; 1M-event log within 1.5x of 1k",
			cmd:    "go test -run '^$' -bench 'BenchmarkView$' -benchtime 1000x ./tui/conversation",
			cell: func(r *results) string {
				return "1k: " + bold(r.each("BenchmarkView/1000", "ns/op", num(2, 1e6), " / ")+" ms") + "; 1M: " + r.each("BenchmarkView/1000000", "ns/op", num(2, 1e6), " / ") + " ms"
			},
		},
		{
			figure: "a cursor key to the next frame, anywhere in a 1M-event log, every colour profile",
			target: "< 16 ms",
			cmd:    "go test -run '^$' -bench 'BenchmarkKeyToFrame$' -benchtime 1000x ./tui/conversation",
			cell: func(r *results) string {
				return bold(r.each("BenchmarkKeyToFrame", "ns/op", sig(1e6), " / ") + " ms")
			},
		},
		{
			figure: "a cursor key to the next frame in a 1M-event log with a kind filter that shows few events (the 500 `System` events) or none (`Reject`), truecolor",
			target: "≤ one frame (16 ms)",
			cmd:    "go test -run '^$' -bench KeyToFrameFiltered -benchtime 300x ./tui/conversation",
			cell: func(r *results) string {
				return bold(r.each("BenchmarkKeyToFrameFiltered", "cpu-ms/frame", sig(1), " / ")+" ms") + " of the frame's CPU"
			},
		},
		{
			figure: "ingest while answering keys",
			target: "20k events/s, frames ≤ 16 ms",
			cmd:    "go test -run '^$' -bench 'BenchmarkIngest$' -benchtime 1000x ./tui/conversation",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkIngest", "events/s", num(0, 1e3)) + "k events/s")
			},
		},
		{
			figure: "`enter` on a 4 MB observation and on a 200 KB markdown message: the Update, after which the event loop draws the next frame (the view is built in a command meanwhile, \"rendering…\" until it comes)",
			target: "≤ one frame (16 ms)",
			cmd:    "go test -run '^$' -bench 'OpenInspector|BuildInspector' -benchtime 5x ./tui/conversation",
			cell: func(r *results) string {
				return "the Update " + bold(r.span("BenchmarkOpenInspectorObservation4MB", "ns/op", sig(1e6))+" / "+r.span("BenchmarkOpenInspectorMarkdown200KB", "ns/op", sig(1e6))+" ms") + " (observation / markdown); the view built meanwhile in " + r.span("BenchmarkBuildInspectorObservation4MB", "ns/op", sig(1e6)) + " / " + r.span("BenchmarkBuildInspectorMarkdown200KB", "ns/op", sig(1e6)) + " ms"
			},
		},
		{
			figure: "opening the inspector on an assistant message with a markdown table (its view built, glamour included), then one frame; a frame of the open inspector alone",
			target: "< 16 ms",
			cmd:    "go test -run '^$' -bench 'Inspect(Message|Frame)' -benchmem ./tui/conversation",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkInspectMessage", "ns/op", sig(1e6))+" ms") + ", a frame " + r.span("BenchmarkInspectFrame", "ns/op", sig(1e6)) + " ms"
			},
		},
		{
			figure: "`View()` in colour at 160x48 with a search on (rows highlighted, scrubber marked) vs without",
			target: "≤ 4 ms; 1M within 1.5x of 1k",
			cmd:    "go test -run '^$' -bench 'ViewSearching' -benchtime 300x ./tui/conversation",
			cell: func(r *results) string {
				return "with a search on: 1k " + bold(r.span("BenchmarkViewSearching/1000/test", "ns/op", num(2, 1e6))+" ms") + ", 1M " + bold(r.span("BenchmarkViewSearching/1000000/test", "ns/op", num(2, 1e6))+" ms") + " (without: " + r.span("BenchmarkViewSearching/1000/none", "ns/op", num(2, 1e6)) + " / " + r.span("BenchmarkViewSearching/1000000/none", "ns/op", num(2, 1e6)) + " ms)"
			},
		},
		{
			figure: "TUI search: every event of a 100k-event recording plus one 50 MB event, for a query found nowhere (all text read), vs reading that text once (`bytes.IndexByte` over every summary and raw JSON, in the same rounds)",
			target: "≤ 2x",
			cmd:    "go test -run '^$' -bench Search100k -benchtime 5x -count 3 ./tui/conversation",
			cell: func(r *results) string {
				return bold(r.spanAll("BenchmarkSearch100kPlus50MB", "x-floor-cpu", num(2, 1))+"x") + " in CPU time (any case)"
			},
		},
	}
}
