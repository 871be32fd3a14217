package main

// fleetRows returns the rows of the fleet: its table, its sources and its memory.
func fleetRows() []row {
	return []row{
		{
			figure: "`ohwatch ls ROOT` (piped, and `--json`) of a root holding a generated 500k-event conversation whose status `base_state.json` does not give (the CLI's recordings have none; here it is 83 MB, streamed, never held)",
			target: "does not read it whole",
			cmd:    "/usr/bin/time -v ohwatch ls ROOT [--json]",
			hand:   "2026-12-01",
		},
		{
			figure: "`ohwatch ls ROOT` in a terminal (the fleet table; `fleet ROOT` reads the same way) of a root holding a generated 200k-event finished conversation (842 MB), from the start until the table is settled, then `q`",
			target: "does not read it whole",
			cmd:    "/usr/bin/time -v ohwatch ls ROOT",
			hand:   "2026-12-02",
		},
		{
			figure: "fleet table: one frame with 100 live conversations at 100 events/s each (each conversation's events of a frame folded, rows arranged, the screen drawn in truecolor at 160x48)",
			target: "≤ 16 ms",
			cmd:    "go test -run '^$' -bench 'FleetFrame$' -benchtime 500x -benchmem ./tui/fleetview",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkFleetFrame", "cpu-ms/frame", sig(1))+" ms") + " a frame"
			},
		},
		{
			figure: "fleet table: a key to the next frame in that table (cursor move, re-sort, group by source)",
			target: "within a frame",
			cmd:    "go test -run '^$' -bench FleetKeyToFrame -benchtime 500x ./tui/fleetview",
			cell: func(r *results) string {
				return bold(r.spanAll("BenchmarkFleetKeyToFrame", "cpu-ms/frame", sig(1)) + " ms")
			},
		},
		{
			figure: "fleet memory: 100 conversations of 10k generated events each (1.40 GB of event JSON) folded as a live source feeds them; heap held after, with every event dropped",
			target: "≤ 0.5x the events' JSON",
			cmd:    "go test -run '^$' -bench Memory100x10k -benchtime 1x ./fleet",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkMemory100x10k", "held/json", num(3, 1)) + "x")
			},
		},
		{
			figure: "fleet table: a conversation of 10k events opened from the table and left with `esc`, twenty times; heap held after (after a GC) beside before the first",
			target: "does not grow",
			cmd:    "go test -run '^$' -bench FleetOpenAndLeave -benchtime 20x -count 3 ./tui/fleetview",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkFleetOpenAndLeave", "retained-MB", num(2, 1))+" MB") + " held and " + r.span("BenchmarkFleetOpenAndLeave", "screens", num(0, 1)) + " screen alive"
			},
		},
		{
			figure: "the same, resident memory (`retained-rss-MB`, Linux: it counts a big log's off-heap blocks, which the heap does not)",
			target: "does not grow",
			cmd:    "go test -run '^$' -bench FleetOpenAndLeave ./tui/fleetview",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkFleetOpenAndLeave", "retained-rss-MB", num(0, 1))+" MB") + " resident after " + r.span("BenchmarkFleetOpenAndLeave", "iters", num(0, 1)) + " conversations opened and left"
			},
		},
		{
			figure: "fleet sources: 100 live conversations played by a server in another process at 100 events/s each, watched by one agent-server source (search, 100 WebSockets, at most one slice of updates per 100 ms) and folded into the fleet's state, CPU of the watching process",
			target: "under one core",
			cmd:    "go test -run '^$' -bench FleetLive100 -benchtime 1x ./client/fleetsource",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkFleetLive100", "%cpu", num(1, 1))+"%") + " of one core at " + r.span("BenchmarkFleetLive100", "events/s", num(2, 1e3)) + "k events/s"
			},
		},
		{
			figure: "the whole `ohwatch fleet URL --max-streams 100` binary, its table drawn in tmux at 160x48, on that same server",
			target: "under one core",
			cmd:    "tools/fleetcpu/fleetcpu.sh",
			hand:   "2026-12-04",
		},
		{
			figure: "a large account: 20,000 conversations listed by a server in another process, 100 of them running at 100 events/s each, all 100 streamed (`--max-streams 100`), folded into the fleet's state; the other 19,900 are shown from their listing (before this, a fleet opened a history and a socket for every listed conversation: 20,000 cost 1.56 GB and 14,000 open files, as reported)",
			target: "RSS ≤ 300 MB, open files ≤ max-streams + 30, first rows ≤ 1 s, CPU ≤ 0.5 core",
			cmd:    "go test -run '^$' -bench 'FleetScale20k$' -benchtime 1x ./client/fleetsource",
			cell: func(r *results) string {
				return "CPU " + bold(r.span("BenchmarkFleetScale20k", "%cpu", num(0, 1))+"%") + " of one core, RSS " + r.span("BenchmarkFleetScale20k", "rss-MiB", num(0, 1)) + " MiB, " + r.span("BenchmarkFleetScale20k", "open-files", num(0, 1)) + " open files, the first rows in " + r.span("BenchmarkFleetScale20k", "ms-first-rows", num(0, 1)) + " ms"
			},
		},
		{
			figure: "100,000 listed conversations, 100 of them running",
			target: "RSS ≤ 1 GB",
			cmd:    "go test -run '^$' -bench 'FleetScale100k$' -benchtime 1x -timeout 15m ./client/fleetsource",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkFleetScale100k", "rss-MiB", num(0, 1))+" MiB") + " RSS after a GC, " + bold(r.span("BenchmarkFleetScale100k", "peak-rss-MiB", num(0, 1))+" MiB") + " at its peak"
			},
		},
		{
			figure: "the fleet at the listing cap: 100,000 listed conversations, listed again and again",
			target: "under 300 MB, flat across re-listings",
			cmd:    "go test -run '^$' -bench 'BenchmarkFleetListingCap$' -benchtime 1x ./client/fleetsource",
			cell: func(r *results) string {
				return "about " + bold(r.span("BenchmarkFleetListingCap", "heap-B/conv", num(1, 1e3))+" kB") + " per listed conversation: " + bold(r.span("BenchmarkFleetListingCap", "heap-MiB-listed", num(0, 1))+" / "+r.span("BenchmarkFleetListingCap", "heap-MiB-relisted", num(0, 1))+" MiB") + " of live heap listed / listed again, " + r.span("BenchmarkFleetListingCap", "rss-MiB-listed", num(0, 1)) + " / " + r.span("BenchmarkFleetListingCap", "rss-MiB-relisted", num(0, 1)) + " MiB RSS (peak " + r.span("BenchmarkFleetListingCap", "peak-rss-MiB", num(0, 1)) + " MiB)"
			},
		},
		{
			figure: "fleet table: one frame over 100,000 listed conversations while one streams (the frame's slice folded, its rows re-placed, the visible rows drawn, truecolor, 160x48)",
			target: "≤ 16 ms",
			cmd:    "go test -run '^$' -bench 'FleetFrame100k$' -benchtime 200x -benchmem ./tui/fleetview",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkFleetFrame100k", "cpu-ms/frame", sig(1))+" ms") + " of the frame's CPU"
			},
		},
		{
			figure: "fleet memory end to end: 100 conversations of 10k generated events each (1.40 GB of event JSON) served at once by a server in another process, listed, streamed (REST history, WebSocket) and folded; the watching process's resident memory after",
			target: "≤ 0.5x the events' JSON",
			cmd:    "go test -run '^$' -bench FleetMemory100x10k -benchtime 1x ./client/fleetsource",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkFleetMemory100x10k", "rss/json", num(2, 1)) + "x")
			},
		},
		{
			figure: "a local root of 1,000 conversations (40 events each): from the start of the watch to the first slice folded with every conversation listed and its rows sorted",
			target: "≤ 300 ms",
			cmd:    "go test -run '^$' -bench LocalRootFirstScreen -benchtime 1x -count 2 ./client/fleetsource",
			cell: func(r *results) string {
				return bold(r.span("BenchmarkLocalRootFirstScreen1000", "ms-first-screen", num(0, 1)) + " ms")
			},
		},
	}
}
