package main

// loadRows returns the rows of loading, reducing and seeking a recording, and of the commands that read one whole.
func loadRows() []row {
	return []row{
		{
			figure: "load + reduce a 100k-event SDK directory, vs only reading its files with the same parallelism",
			target: "≤ 2x",
			cmd:    "go test -run '^$' -bench 'ReadFloor$|LoadReduce$' -benchtime 3x -count 3 ./client/files",
			cell: func(r *results) string {
				return r.span("BenchmarkLoadReduce", "ns/op", sig(1e6)) + " ms vs " + r.span("BenchmarkReadFloor", "ns/op", sig(1e6)) + " ms: " + bold(ratio(r.mean("BenchmarkLoadReduce", "ns/op"), r.mean("BenchmarkReadFloor", "ns/op")))
			},
		},
		{
			figure: "the same events from JSONL",
			target: "≥ 150 MB/s",
			cmd:    "go test -run '^$' -bench JSONL -benchtime 3x ./client/files",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkJSONL", "MB/s", num(0, 1)) + " MB/s")
			},
		},
		{
			figure: "memory of a loaded 100k-event log",
			target: "≤ 2x the event JSON",
			cmd:    "go test -run '^$' -bench 'Memory$' -benchtime 3x ./client/files",
			cell: func(r *results) string {
				return "about " + bold(r.span("BenchmarkMemory", "heap/json", num(2, 1))+"x")
			},
		},
		{
			figure: "`Apply` alone",
			target: "≥ 1M events/s",
			cmd:    "go test -run '^$' -bench 'BenchmarkApply$' -benchtime 2s ./reducer",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkApply", "events/s", num(1, 1e6)) + "M events/s")
			},
		},
		{
			figure: "`Log.At(i)` at random i in a 1M-event log",
			target: "mean ≤ 200 µs, worst ≤ 1 ms",
			cmd:    "go test -run '^$' -bench 'BenchmarkAt$' -benchtime 30000x ./reducer",
			cell: func(r *results) string {
				return "mean " + bold(r.span("BenchmarkAt", "mean-cpu-µs", num(1, 1))+" µs") + " of CPU, worst " + r.span("BenchmarkAt", "worst-cpu-µs", sig(1e3)) + " ms"
			},
		},
		{
			figure: "`replay` of a generated 1M-event JSONL recording (1.48 GB of JSON), opened as `replay` opens it (the reader streams into a feed, the log appends each batch, `Log.Settle` when the feed ends, as the TUI does): resident memory against the JSON, and seeks (`Log.At` at 2,000 random events) in the open log",
			target: "RSS ≤ 1.2x the JSON; worst seek < 1 ms",
			cmd:    "go test -run '^$' -bench OpenBig -benchtime 1x ./session",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkOpenBig", "rss-peak/json", num(3, 1))+"x") + " at its peak, " + r.span("BenchmarkOpenBig", "rss/json", num(3, 1)) + "x once loaded, the worst seek " + r.span("BenchmarkOpenBig", "seek-worst-cpu-µs", sig(1e3)) + " ms of CPU"
			},
		},
		{
			figure: "`ohwatch state` of a generated 1M-event directory (1.48 GB of event JSON, 166 MB `base_state.json`): peak resident memory against the JSON",
			target: "≤ 1.2x",
			cmd:    "go test -run '^$' -bench '^BenchmarkPeakState$' -benchtime 1x -timeout 30m ./session",
			cell:   peakCell("BenchmarkPeakState"),
		},
		{
			figure: "`ohwatch replay DIR --headless` of that directory, text into a discarded writer: peak resident memory against the JSON",
			target: "≤ 1.2x",
			cmd:    "go test -run '^$' -bench '^BenchmarkPeakReplayHeadless$' -benchtime 1x -timeout 30m ./session",
			cell:   peakCell("BenchmarkPeakReplayHeadless"),
		},
		{
			figure: "the same with `--json`",
			target: "≤ 1.2x",
			cmd:    "go test -run '^$' -bench '^BenchmarkPeakReplayHeadlessJSON$' -benchtime 1x -timeout 30m ./session",
			cell:   peakCell("BenchmarkPeakReplayHeadlessJSON"),
		},
		{
			figure: "stream a `base_state.json` of 1.1 GiB (over the gigabyte a base state was once read whole under): peak resident memory of the process",
			target: "bounded, whatever the size",
			cmd:    "go test -run '^$' -bench 'ReadBaseStateBig' -benchtime 1x ./model",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkReadBaseStateBig", "rss-peak-MB", num(1, 1)) + " MB")
			},
		},
		{
			figure: "load + reduce of a 100k-event directory vs the read floor, alternated in the same rounds",
			target: "≤ 1.5x",
			cmd:    "go test -run '^$' -bench LoadReduceVsFloor -benchtime 5x ./client/files",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkLoadReduceVsFloor", "x-floor", num(2, 1))+"x") + " (" + r.span("BenchmarkLoadReduceVsFloor", "x-floor-cpu", num(2, 1)) + "x in CPU time)"
			},
		},
		{
			figure: "`Log.At(i)` at random i of any branch in a 1M-event log navigated back 100 times (`gen --branches 100`), vs the linear one",
			target: "mean and worst as on a linear log",
			cmd:    "go test -run '^$' -bench 'BenchmarkAt(Branched)?$' -benchtime 30000x ./reducer",
			cell: func(r *results) string {
				return "mean " + bold(r.span("BenchmarkAtBranched", "mean-cpu-µs", num(1, 1))+" µs") + " of CPU vs " + r.span("BenchmarkAt", "mean-cpu-µs", num(1, 1)) + " µs linear (" + ratio(r.mean("BenchmarkAtBranched", "mean-cpu-µs"), r.mean("BenchmarkAt", "mean-cpu-µs")) + "), worst " + r.span("BenchmarkAtBranched", "worst-cpu-µs", sig(1e3)) + " ms vs " + r.span("BenchmarkAt", "worst-cpu-µs", sig(1e3)) + " ms"
			},
		},
		{
			figure: "load + reduce a 100k-event directory navigated back 100 times, vs the linear one of the same seed, alternated in the same rounds",
			target: "within 10%",
			cmd:    "go test -run '^$' -bench LoadReduceBranched -benchtime 3x -count 2 ./client/files",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkLoadReduceBranched", "x-linear", num(2, 1)) + "x")
			},
		},
		{
			figure: "`Log.Append` of a linear log, before and after the log learnt the tree",
			target: "no extra cost",
			cmd:    "go test -run '^$' -bench 'BenchmarkAppend$' -benchtime 2s ./reducer",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkAppend", "events/cpu-s", num(0, 1e3))+"k") + " events per CPU-second"
			},
		},
		{
			figure: "`ohwatch replay` of a 100k-event directory: first screen",
			target: "≤ 300 ms",
			cmd:    "go test -run '^$' -bench ReplayFirstScreen -benchtime 10x -count 3 ./session",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkReplayFirstScreen100k", "ms/first-screen", sig(1))+" ms") + " to the first frame"
			},
		},
		{
			figure: "`ohwatch replay --headless` of a 100k-event directory (text into a drained pipe), vs `ohwatch state` on it",
			target: "≤ 1.5x",
			cmd:    "go test -run '^$' -bench HeadlessReplayVsState -benchtime 3x -count 2 ./cli",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkHeadlessReplayVsState", "x-state", num(2, 1))+"x") + " (" + r.span("BenchmarkHeadlessReplayVsState", "x-state-json", num(2, 1)) + "x with --json)"
			},
		},
		{
			figure: "`ohwatch replay --headless` (text, and `--json`) of generated 200k- and 1M-event directories, vs `ohwatch state` on them, in process CPU time (user + system)",
			target: "≤ 1.5x",
			cmd:    "/usr/bin/time -f '%U %S' ohwatch replay DIR --headless [--json] >/dev/null",
			hand:   "2026-12-01",
		},
		{
			figure: "`ohwatch state` (and `export`, `compare`, `ls`'s verdicts: `session.LoadLog`) of a 100k-event directory (164 MB of JSON): peak resident memory against the JSON, and the load",
			target: "—",
			cmd:    "go test -run '^$' -bench 'BenchmarkLoadLog$' -benchtime 1x ./session",
			cell: func(r *results) string {
				return "peak " + bold(r.span("BenchmarkLoadLog", "rss-peak/json", num(2, 1))+"x") + " the JSON, the load " + bold(r.span("BenchmarkLoadLog", "load-s", num(2, 1))+" s")
			},
		},
		{
			figure: "`export --format otlp` of a generated 100k-event directory, vs `state --json` of it",
			target: "≤ 2x",
			cmd:    "go test -run '^$' -bench ExportOTLP -benchtime 3x ./cli",
			cell: func(r *results) string {
				return bold(ratio(r.mean("BenchmarkExportOTLP/otlp", "ns/op"), r.mean("BenchmarkExportOTLP/state", "ns/op")))
			},
		},
		{
			figure: "resuming `--record` into a 100k-event recording (every event read for its id, through the loader's pipeline)",
			target: "—",
			cmd:    "go test -run '^$' -bench 'LoadReduce$|RecorderReopen' -benchtime 2x ./client/files",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkRecorderReopen", "ns/op", sig(1e9))+" s") + ", " + ratio(r.mean("BenchmarkRecorderReopen", "ns/op"), r.mean("BenchmarkLoadReduce", "ns/op")) + " a load + reduce of the same directory"
			},
		},
	}
}

// peakCell writes a 1M-event peak: the process's resident memory at its
// peak against the JSON it read.
func peakCell(name string) func(r *results) string {
	return func(r *results) string {
		return bold(r.span(name, "rss-peak/json", num(2, 1))+"x") + " at its peak"
	}
}
