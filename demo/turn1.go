package demo

import (
	"ohwatch/gen"
	"ohwatch/model"
)

const userRequest = "Our API's cache hit rate collapses as soon as the ttlcache fills up: hot keys keep getting evicted while cold ones stay. " +
	"The repo is at /workspace/project/ttlcache. Please find the bug, fix it with a regression test, and keep the public API unchanged."

// turn1 is the bug hunt: explore, reproduce with a failing test, find the
// two causes (eviction from the wrong end, reads not refreshing recency),
// fix them one at a time, verify and document.
func (s *story) turn1() {
	b := s.b
	s.emit(b.SystemPrompt())
	s.wait(1200)
	s.emit(b.User(userRequest))
	s.status(model.StatusRunning)

	s.tasks = []model.Task{
		{Title: "Reproduce the eviction bug with a failing test", Notes: "Fill the cache past capacity and check which key goes"},
		{Title: "Find the root cause in cache.go", Notes: "Check how recency is tracked in the list"},
		{Title: "Fix eviction order and recency tracking", Notes: "Keep the public API unchanged"},
		{Title: "Run the full suite, vet and lint", Notes: "go test ./..., go vet, golangci-lint"},
		{Title: "Document the eviction policy in the README", Notes: ""},
	}
	r := s.llm(2900, 412, "I'll start by planning the work and looking at the repository.",
		"The user reports that hot keys get evicted while cold ones stay once the cache is full. That smells like an LRU that evicts from the wrong end of its list, or one that never refreshes recency on reads. I should reproduce it with a test before touching the code.")
	s.setTasks(r, "ptttt", "Plan the eviction bug fix")

	r = s.llm(1400, 188, "Let me look at the repository layout, its history and its state.", "")
	s.runAll(r,
		call{cmd: "cd /workspace/project/ttlcache && ls -la", summary: "List the repository files", ms: 90, out: lsOutput},
		call{cmd: "git log --oneline -10", summary: "Show the recent commits", ms: 60, out: gitLogOutput},
		call{cmd: "cat go.mod && go version", summary: "Check the module path and Go version", ms: 250,
			out: "module github.com/northwind-labs/ttlcache\n\ngo 1.24\ngo version go1.25.4 linux/amd64"})

	r = s.llm(1000, 90, "", "")
	s.run(r, "find . -name '*.go' | xargs wc -l", 0, "Count the Go source lines", 80,
		wcOutput(s.files[cachePath], s.files[cacheTestPath]), 0)

	r = s.llm(1300, 160, "Let me read the implementation, the tests and the README together.", "")
	s.viewAll(r, cachePath, cacheTestPath, readmePath)

	r = s.llm(1700, 144, "Let me see every place the list is touched.",
		"The list front is documented as most recently used. Set pushes new entries to the front and moves updated ones there. evict takes the Front, which would be the newest entry, not the oldest. And Get never calls MoveToFront, so reads do not count as use.")
	s.run(r, `grep -n "c.ll\." cache.go`, 0, "Find all list operations in cache.go", 120, s.grep(cachePath, "cache.go", "c.ll."), 0)

	r = s.llm(1200, 130, "Has evict always taken the front of the list?", "")
	s.run(r, "git log -L '/func (c \\*Cache\\[K, V\\]) evict/,+7:cache.go' --oneline | head -20", 0,
		"Trace the history of evict", 400, blameOutput, 0)

	r = s.llm(1500, 96, "", "")
	s.run(r, "cat Makefile .github/workflows/ci.yml", 0, "Check how CI runs the tests", 110,
		"test:\n\tgo test -race -count=1 ./...\n\nlint:\n\tgolangci-lint run ./...\n\nbench:\n\tgo test -run '^$$' -bench . -benchmem ./...\n\n.PHONY: test lint bench\nname: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        go: ['1.24', '1.25']\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-go@v5\n        with:\n          go-version: ${{ matrix.go }}\n      - run: make test\n      - run: make lint", 0)

	r = s.llm(1200, 120, "First, a baseline run of the existing tests.", "")
	s.run(r, "go test -v -count=1 ./...", 120, "Run the existing tests", 1900, testsPassBefore, 0)

	r = s.llm(2200, 740, "Now I'll reproduce what the user sees: a skewed (Zipf) workload through a full cache.", "")
	s.create(r, hitRatePath, hitRateTestGo, "Add a hit-rate test with a production-like workload")

	r = s.llm(1000, 90, "", "")
	s.run(r, "go test -v -count=1 -run TestHitRateZipf ./...", 120, "Measure the hit rate under a skewed workload", 1400, hitRateFail, 1)

	r = s.llm(2600, 860, "A 3.8% hit rate on a workload this skewed confirms the report. The existing tests never fill the cache, which is why they pass. I'll add tests that pin down the eviction order.",
		"Two cases: without reads, the first key written must go; with a read of the oldest key before the cache fills, the next oldest must go instead. Both use the fake clock helper from cache_test.go.")
	s.create(r, evictTestPath, evictionTestGo, "Add regression tests for the eviction order")

	r = s.llm(1100, 90, "", "")
	s.run(r, "go test -v -count=1 ./...", 120, "Run the tests including the new ones", 2100, testsFailBoth, 1)

	r = s.llm(1600, 230, "Both new tests fail, so the bug is reproduced.", "")
	s.setTasks(r, "dpttt", "Mark the reproduction done")

	r = s.llm(1300, 110, "Let me look at the eviction code closely.", "")
	s.viewRange(r, cachePath, s.lineOf(cachePath, "// evict removes"), s.lineOf(cachePath, "// evict removes")+14, "Read evict and removeElement")

	r = s.llm(3400, 520, "", "")
	s.think(r, "Root cause analysis:\n\n1. The list keeps the most recently used entry at the front (PushFront on insert, MoveToFront on update).\n"+
		"2. evict() removes c.ll.Front(), the most recently used entry. It must remove c.ll.Back().\n"+
		"3. Get() does not call MoveToFront, so a read never makes an entry recent. Hot keys that are only read drift to the back and get evicted.\n\n"+
		"Fix both: evict from the back, and move to front on a hit. Expired entries are removed on Get already, so nothing else changes. The public API stays the same.",
		"Work out the root cause of the wrong evictions")

	r = s.llm(1100, 150, "", "")
	s.setTasks(r, "ddptt", "Start on the fix")

	// A malformed call: the SDK rejects it and the agent carries on.
	r = s.llm(1500, 210, "I'll fix evict first.", "")
	bad := gen.ToolArgs("command", "str_replace", "path", cachePath, "new_str", "\tel := c.ll.Back()\n\tif el != nil {",
		"summary", "Evict from the back of the list", "security_risk", gen.RiskLow)
	ba := b.BadCall(r, "file_editor", bad)
	s.emit(ba.Raw, b.AgentError(ba, "Error validating args "+bad+" for tool 'file_editor': 1 validation error for FileEditorAction\n"+
		"old_str\n  Value error, old_str is required for command 'str_replace' [type=value_error, input_value=None, input_type=NoneType]"))

	r = s.llm(1400, 240, "I left out old_str; retrying with it.", "")
	s.edit(r, cachePath, "\tel := c.ll.Front()\n\tif el != nil {", "\tel := c.ll.Back()\n\tif el != nil {", "Evict from the back of the list")

	r = s.llm(1000, 88, "", "")
	s.run(r, "go test -v -count=1 ./...", 120, "Run the tests after the eviction fix", 1800, testsFailRecency, 1)

	r = s.llm(1600, 300, "", "")
	s.think(r, "TestEvictsOldestWithoutReads passes now, so the eviction end is right. TestGetRefreshesRecency still fails: after Get(\"a\") the entry stays at "+
		"the back, so the next Set evicts a. That is the second cause: Get must MoveToFront on a hit (not on a miss or an expired entry).",
		"Interpret the remaining failure")

	r = s.llm(1900, 260, "Eviction order is fixed; reads still do not refresh recency.", "")
	s.edit(r, cachePath, "\tc.stats.Hits++\n\treturn e.value, true", "\tc.ll.MoveToFront(el)\n\tc.stats.Hits++\n\treturn e.value, true",
		"Move an entry to the front when it is read")

	r = s.llm(900, 80, "", "")
	s.run(r, "go test -v -count=1 ./...", 120, "Run the tests after the recency fix", 1700, testsPassAll, 0)

	r = s.llm(1000, 85, "And the workload from the report:", "")
	s.run(r, "go test -v -count=1 -run TestHitRateZipf ./...", 120, "Measure the hit rate again", 1300, hitRatePass, 0)

	r = s.llm(1100, 110, "", "")
	s.viewRange(r, cachePath, s.lineOf(cachePath, "func (c *Cache[K, V]) Get"), s.lineOf(cachePath, "// Set stores")-1, "Re-read Get after the fix")

	r = s.llm(1200, 150, "All tests pass.", "")
	s.setTasks(r, "dddpt", "Mark the fix done")

	r = s.llm(1100, 130, "Now the checks CI runs.", "")
	s.runAll(r,
		call{cmd: "go vet ./...", summary: "Vet the package", timeout: 120, ms: 900},
		call{cmd: "gofmt -l .", summary: "Check formatting", ms: 120},
		call{cmd: "golangci-lint run ./...", summary: "Lint", timeout: 180, ms: 2100, out: "0 issues."},
		call{cmd: "go test -cover ./...", summary: "Measure coverage", timeout: 120, ms: 1400,
			out: "ok  \tgithub.com/northwind-labs/ttlcache\t0.133s\tcoverage: 96.2% of statements"})

	r = s.llm(1000, 90, "", "")
	s.run(r, "go test -race -count=50 ./...", 300, "Run the suite 50 times with the race detector", 2900,
		"ok  \tgithub.com/northwind-labs/ttlcache\t1.412s", 0)

	r = s.llm(1300, 120, "Let me review the change.", "")
	s.runAll(r,
		call{cmd: "git diff --stat", summary: "Summarise the diff", ms: 60, out: " cache.go | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)"},
		call{cmd: "git diff", summary: "Review the diff", ms: 70, out: gen.UnifiedDiff("cache.go", cacheGo, s.files[cachePath])})

	r = s.llm(1100, 140, "", "")
	s.setTasks(r, "ddddp", "Start on the README")

	r = s.llm(1400, 260, "", "")
	s.edit(r, readmePath, "the least recently used entry is evicted.\n",
		"the least recently used entry is evicted; both Get and Set count as use.\n", "Document what counts as use for eviction")

	r = s.llm(1100, 150, "", "")
	s.setTasks(r, "ddddd", "Mark all tasks done")

	r = s.llm(900, 70, "", "")
	s.viewTasks(r, "Confirm every task is done")

	r = s.llm(1200, 110, "All five tasks are done. I'll commit the fix before anything else.", "")
	s.run(r, "git add -A && git commit -qm \"cache: evict the least recently used entry\" && git log --oneline -1", 0,
		"Commit the eviction fix", 240, "3f9c2e1 (HEAD -> fix/lru-eviction) cache: evict the least recently used entry", 0)

	r = s.llm(1000, 80, "", "")
	s.run(r, "go test -race -count=1 ./...", 120, "Run the whole suite once more under -race", 2600, "ok  \tgithub.com/acme/ttlcache\t1.412s", 0)

}
