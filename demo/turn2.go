package demo

import (
	"time"

	"ohwatch/gen"
	"ohwatch/model"
)

const userFollowUp = "Great, thanks! Two more things before we merge: we call the cache from many goroutines, so please make it safe " +
	"for concurrent use, and add a Delete(key) method for invalidation. Then rebase on main and push the branch (fix/lru-eviction)."

const benchTestGo = `package ttlcache

import (
	"strconv"
	"testing"
	"time"
)

func BenchmarkGetHit(b *testing.B) {
	c := New[string, int](1024, time.Minute)
	c.Set("k", 1)
	for b.Loop() {
		c.Get("k")
	}
}

func BenchmarkSetEvict(b *testing.B) {
	c := New[string, int](1024, time.Minute)
	i := 0
	for b.Loop() {
		c.Set(strconv.Itoa(i%4096), i)
		i++
	}
}

func BenchmarkParallelGet(b *testing.B) {
	c := New[string, int](1024, time.Minute)
	c.Set("k", 1)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			c.Get("k")
		}
	})
}
`

const deleteTest = `

func TestDelete(t *testing.T) {
	c, _ := newTestCache(2, time.Minute)
	c.Set("a", 1)
	if !c.Delete("a") {
		t.Fatal("Delete(a) = false, want true")
	}
	if c.Delete("a") {
		t.Fatal("second Delete(a) = true, want false")
	}
	if _, ok := c.Get("a"); ok || c.Len() != 0 {
		t.Fatal("deleted entry still present")
	}
}
`

// turn2 is the follow-up: a user message while the first task is wrapping up,
// then concurrency (a data race found and fixed with a mutex), Delete, a
// condensation, a rebase and a force push that needs the user's approval,
// and the finish.
func (s *story) turn2() {
	b := s.b
	// The user follows up while the agent is still at work: the message is
	// queued into the running conversation, so the whole demo is one run
	// that ends in one provisional, then confirmed, finished.
	s.wait(1500)
	s.emit(b.User(userFollowUp))

	s.tasks = append(s.tasks, model.Task{Title: "Make the cache safe for concurrent use; add Delete", Notes: "Prove the race first with go test -race"})
	r := s.llm(2300, 360, "I'll add the new work to the plan.",
		"Get mutates the list (MoveToFront), so even reads need exclusive access: a plain sync.Mutex, not an RWMutex. I'll prove the race with a test under -race before adding the lock.")
	s.setTasks(r, "dddddp", "Add the concurrency work to the plan")

	r = s.llm(1000, 110, "Which methods touch shared state?", "")
	s.run(r, `grep -n "^func (c \\*Cache" cache.go`, 0, "List the Cache methods", 90, s.grep(cachePath, "cache.go", "func (c *Cache"), 0)

	r = s.llm(1600, 520, "First a test that uses the cache from several goroutines.", "")
	s.edit(r, cacheTestPath, "import (\n\t\"testing\"\n\t\"time\"\n)", "import (\n\t\"strconv\"\n\t\"sync\"\n\t\"testing\"\n\t\"time\"\n)",
		"Import sync and strconv for the concurrency test")

	r = s.llm(1400, 610, "", "")
	end := "\tif v, ok := c.Get(\"a\"); !ok || v != 2 {\n\t\tt.Fatalf(\"Get(a) = %d, %v; want 2, true\", v, ok)\n\t}\n}\n"
	s.edit(r, cacheTestPath, end, end+concurrentTest[1:], "Add a concurrent use test")

	r = s.llm(1000, 90, "", "")
	s.run(r, "go test -race -count=1 -run TestConcurrentUse ./...", 180, "Run the concurrency test under the race detector", 2800, s.raceReport(), 1)

	r = s.llm(2800, 540, "", "")
	s.think(r, "The race detector confirms it: Set writes the list and the map while Get reads the map and, since the fix, also moves list elements. "+
		"An RWMutex would not help because Get writes. One sync.Mutex guarding every method is the simplest correct option; "+
		"the critical sections are tiny (a map lookup and a pointer swap), so contention stays low. Len and Stats need it too.",
		"Choose a locking strategy")

	r = s.llm(1200, 200, "", "")
	s.edit(r, cachePath, "import (\n\t\"container/list\"\n\t\"time\"\n)", "import (\n\t\"container/list\"\n\t\"sync\"\n\t\"time\"\n)", "Import sync")

	r = s.llm(1100, 230, "", "")
	s.edit(r, cachePath, "type Cache[K comparable, V any] struct {\n\tcapacity int",
		"type Cache[K comparable, V any] struct {\n\tmu       sync.Mutex // guards the fields below; Get reorders the list too\n\tcapacity int",
		"Add a mutex to Cache")

	r = s.llm(1000, 180, "", "")
	s.edit(r, cachePath, "func (c *Cache[K, V]) Get(key K) (V, bool) {\n\tvar zero V",
		"func (c *Cache[K, V]) Get(key K) (V, bool) {\n\tc.mu.Lock()\n\tdefer c.mu.Unlock()\n\tvar zero V", "Lock in Get")

	r = s.llm(900, 170, "", "")
	s.edit(r, cachePath, "func (c *Cache[K, V]) Set(key K, value V) {\n",
		"func (c *Cache[K, V]) Set(key K, value V) {\n\tc.mu.Lock()\n\tdefer c.mu.Unlock()\n", "Lock in Set")

	r = s.llm(1300, 260, "", "")
	s.edit(r, cachePath, "func (c *Cache[K, V]) Len() int { return c.ll.Len() }\n\n// Stats returns a snapshot of the counters.\nfunc (c *Cache[K, V]) Stats() Stats { return c.stats }\n",
		"func (c *Cache[K, V]) Len() int {\n\tc.mu.Lock()\n\tdefer c.mu.Unlock()\n\treturn c.ll.Len()\n}\n\n// Stats returns a snapshot of the counters.\nfunc (c *Cache[K, V]) Stats() Stats {\n\tc.mu.Lock()\n\tdefer c.mu.Unlock()\n\treturn c.stats\n}\n",
		"Lock in Len and Stats")

	r = s.llm(1100, 120, "", "")
	s.viewRange(r, cachePath, s.lineOf(cachePath, "// Get returns"), s.lineOf(cachePath, "// evict removes")-1, "Review the locked Get and Set")

	r = s.llm(900, 90, "", "")
	s.runAll(r,
		call{cmd: "go test -race -count=1 ./...", summary: "Run the whole suite under the race detector", timeout: 180, ms: 1900, out: racePass},
		call{cmd: "go test -race -count=100 -run TestConcurrentUse ./...", summary: "Repeat the concurrency test 100 times", timeout: 300, ms: 2400,
			out: "ok  \tgithub.com/northwind-labs/ttlcache\t2.904s"})

	// The context has grown: the condenser summarises the first turn.
	s.emit(b.CondensationRequest())
	id := b.CallCondenser(2600*time.Millisecond, 1180)
	s.emit(b.Stats())
	s.emit(b.Condensation(4, 46, "USER_CONTEXT: Fix ttlcache evicting hot keys (repo /workspace/project/ttlcache, keep the public API). "+
		"Follow-up: make the cache safe for concurrent use, add Delete(key), rebase on main and push fix/lru-eviction.\n\n"+
		"COMPLETED: evict() now takes c.ll.Back(); Get() moves hits to the front; eviction_test.go has two regression tests; README documents the policy; "+
		"vet and lint clean. Concurrency: TestConcurrentUse added, sync.Mutex guards Get/Set/Len/Stats, go test -race passes.\n\n"+
		"PENDING: Delete(key) with a test, benchmarks, commit, rebase on origin/main, push.\n\nCODE_STATE: cache.go, cache_test.go, eviction_test.go, README.md modified.", id))

	r = s.llm(1300, 120, "The history was condensed; let me re-read the current file before adding Delete.", "")
	s.viewAll(r, cachePath)

	r = s.llm(1900, 330, "Now Delete.", "")
	s.edit(r, cachePath, "// evict removes the least recently used entry.",
		"// Delete removes key if it is present and reports whether it was.\nfunc (c *Cache[K, V]) Delete(key K) bool {\n\tc.mu.Lock()\n\tdefer c.mu.Unlock()\n"+
			"\tel, ok := c.items[key]\n\tif ok {\n\t\tc.removeElement(el)\n\t}\n\treturn ok\n}\n\n// evict removes the least recently used entry.",
		"Add Delete")

	r = s.llm(1200, 300, "", "")
	concEnd := "\tif n := c.Len(); n > 64 {\n\t\tt.Fatalf(\"Len = %d, want at most 64\", n)\n\t}\n}\n"
	s.edit(r, cacheTestPath, concEnd, concEnd+deleteTest[1:], "Test Delete")

	r = s.llm(900, 80, "", "")
	s.run(r, "go test -race -count=1 -v -run 'TestDelete|TestConcurrentUse' ./...", 180, "Run the new tests", 2300,
		"=== RUN   TestConcurrentUse\n--- PASS: TestConcurrentUse (0.04s)\n=== RUN   TestDelete\n--- PASS: TestDelete (0.00s)\nPASS\nok  \tgithub.com/northwind-labs/ttlcache\t1.093s", 0)

	r = s.llm(1000, 100, "", "")
	s.run(r, "go doc . Cache.Delete", 0, "Check the documentation of Delete", 350,
		"package ttlcache // import \"github.com/northwind-labs/ttlcache\"\n\nfunc (c *Cache[K, V]) Delete(key K) bool\n    Delete removes key if it is present and reports whether it was.", 0)

	r = s.llm(1700, 640, "Let me measure what the lock costs.", "")
	s.create(r, workDir+"/cache_bench_test.go", benchTestGo, "Add benchmarks for Get, Set and parallel Get")

	r = s.llm(900, 80, "", "")
	s.run(r, "go test -run '^$' -bench . -benchmem ./...", 300, "Run the benchmarks", 2900, benchOutput, 0)

	r = s.llm(1300, 150, "Let me compare against the version without the lock.", "")
	s.run(r, "git stash -q && go test -run '^$' -bench 'GetHit|SetEvict' -count=6 . > /tmp/old.txt; git stash pop -q && "+
		"go test -run '^$' -bench 'GetHit|SetEvict' -count=6 . > /tmp/new.txt && benchstat /tmp/old.txt /tmp/new.txt", 600,
		"Compare benchmarks with and without the mutex", 3000, benchstatOutput, 0)

	r = s.llm(900, 120, "", "")
	s.setTasks(r, "dddddp", "Keep the concurrency task in progress until the push")

	r = s.llm(1500, 200, "The lock adds about 15 ns to an uncontended Get; that is fine for this cache.", "")
	s.edit(r, readmePath, "both Get and Set count as use.\n", "both Get and Set count as use.\n\nA Cache is safe for concurrent use by multiple goroutines;\n"+
		"Delete removes an entry at once (for invalidation).\n", "Document concurrency safety and Delete")

	r = s.llm(1100, 110, "Let me check everything once more, then commit and rebase onto main.", "")
	s.runAll(r,
		call{cmd: "git status", summary: "Check what changed", ms: 70, out: gitStatusOutput},
		call{cmd: "go vet ./...", summary: "Vet", timeout: 120, ms: 800},
		call{cmd: "golangci-lint run ./...", summary: "Lint", timeout: 180, ms: 1500, out: "0 issues."})

	r = s.llm(1300, 170, "", "")
	s.run(r, "git add -A && git commit -m \"cache: evict the least recently used entry and lock for concurrent use\"",
		0, "Commit the fix on the branch", 240, commitOutput, 0)

	// The user chimes in while the agent works; no reply is needed.
	s.wait(900)
	s.emit(b.User("Heads-up: Priya merged a Peek method into main an hour ago, so you may hit a conflict in cache.go."))

	r = s.llm(1000, 120, "", "")
	s.run(r, "git fetch origin main && git rebase origin/main", 120, "Rebase the branch onto the latest main", 1200, rebaseConflict, 1)

	// The rebase stopped with both sides' methods in conflict.
	resolved := s.files[cachePath]
	s.files[cachePath] = conflicted(resolved)
	r = s.llm(1400, 140, "As expected, a conflict. Let me look at it.", "")
	s.viewRange(r, cachePath, s.lineOf(cachePath, "<<<<<<<")-2, s.lineOf(cachePath, ">>>>>>>")+2, "Read the conflict in cache.go")

	r = s.llm(2400, 720, "Both sides are wanted: keep Peek from main and Delete from this branch. Peek reads the map, so it needs the lock too.", "")
	s.edit(r, cachePath, conflictBlock(), peekLocked+"\n"+deleteMethod, "Keep Peek and Delete; lock Peek")

	r = s.llm(1000, 90, "", "")
	s.viewRange(r, cachePath, s.lineOf(cachePath, "// Peek returns")-1, s.lineOf(cachePath, "// evict removes"), "Check the resolved region")

	r = s.llm(1300, 260, "The concurrency test should exercise Peek as well.", "")
	s.edit(r, cacheTestPath, "\t\t\t\tc.Set(k, i)\n\t\t\t\tc.Get(k)\n", "\t\t\t\tc.Set(k, i)\n\t\t\t\tc.Get(k)\n\t\t\t\tc.Peek(k)\n",
		"Use Peek in the concurrency test")

	r = s.llm(1000, 110, "", "")
	s.run(r, "gofmt -l . && git add cache.go && GIT_EDITOR=true git rebase --continue", 120, "Continue the rebase", 400,
		"[detached HEAD 2c7e91d] cache: evict the least recently used entry and lock for concurrent use\n 6 files changed, 169 insertions(+), 9 deletions(-)\n"+
			"Successfully rebased and updated refs/heads/fix/lru-eviction.", 0)

	r = s.llm(900, 80, "", "")
	s.runAll(r,
		call{cmd: "go test -race -count=1 ./...", summary: "Re-run the suite after the rebase", timeout: 180, ms: 1800, out: racePass},
		call{cmd: "git log --oneline -4", summary: "Check the rebased history", ms: 60,
			out: "c18a9f2 (HEAD -> fix/lru-eviction) cache: evict the least recently used entry and lock for concurrent use\n" +
				"b7f3a08 (origin/main, main) cache: add Peek\n9c41e2a cache: refresh TTL when an existing key is set\n5b8d0f3 cache: count evictions in Stats"})

	r = s.llm(1000, 90, "", "")
	s.run(r, "git diff --stat origin/fix/lru-eviction", 0, "Compare with the remote branch", 90,
		" README.md           |  7 ++++++-\n cache.go            | 46 +++++++++++++++++++++++++++++++++++++++++-----\n cache_bench_test.go | 36 ++++++++++++++++++++++++++++++++++++\n"+
			" cache_test.go       | 36 +++++++++++++++++++++++++++++++++++-\n eviction_test.go    | 39 +++++++++++++++++++++++++++++++++++++++\n hitrate_test.go     | 28 ++++++++++++++++++++++++++++\n"+
			" 6 files changed, 182 insertions(+), 10 deletions(-)", 0)

	// The branch was already on origin and the rebase rewrote it, so the
	// push must force: HIGH risk, which ConfirmRisky holds for approval.
	r = s.llm(1800, 260, "The branch already exists on origin and the rebase rewrote its commits, so it needs a force push. "+
		"That rewrites remote history, so I'm marking it high risk.", "")
	push := b.Terminal(r, "git push --force-with-lease origin fix/lru-eviction", 120,
		"Force-push the rebased branch", gen.RiskHigh)
	s.emit(push.Raw)
	s.status(model.StatusWaitingForConfirmation)
	s.pushID = push.ID
	if s.rejectPush {
		s.branchAt = len(s.events)
		s.pushRejected()
		return
	}
	s.wait(4000)
	s.status(model.StatusRunning)
	s.wait(1900)
	s.emit(b.TerminalResult(push, pushOutput, 0))

	r = s.llm(1000, 70, "", "")
	s.run(r, "git status -sb", 0, "Confirm the branch is in sync", 60, "## fix/lru-eviction...origin/fix/lru-eviction", 0)

	r = s.llm(1100, 150, "", "")
	s.setTasks(r, "dddddd", "Mark every task done")

	r = s.llm(900, 70, "", "")
	s.viewTasks(r, "Check the final task list")

	r = s.llm(2900, 520, "", "")
	fin := b.Finish(r, "Done, and pushed to `fix/lru-eviction`.\n\n"+
		"1. **Eviction bug**: `evict` removed the newest entry (`Front`) instead of the least recently used (`Back`), and `Get` did not refresh recency. Both fixed, with regression tests.\n"+
		"2. **Concurrency**: `go test -race` caught a data race between `Get` and `Set`. A `sync.Mutex` now guards every method (`Get` reorders the list, so an RWMutex would not help). "+
		"An uncontended `Get` costs ~38 ns.\n3. **Delete(key)** added, with a test.\n\nThe branch is rebased on the latest `main`; all tests pass under `-race`, vet and lint are clean.",
		"Summarise the fixes and finish")
	s.emit(fin.Raw)
	s.wait(30)
	s.emit(b.FinishResult(fin))
	s.status(model.StatusFinished)
}

// pushRejected is the run after the user rejected the force push: the agent
// takes the rejection as final, says where the work stands and stops
// without pushing.
func (s *story) pushRejected() {
	// Another timeline: its events must not take the ids the approved
	// run's events have.
	s.b.Rand().Int64()
	s.wait(1200)
	s.status(model.StatusRunning)
	r := s.llm(1300, 150, "The push was rejected, so I won't push. The work itself is done.",
		"The user rejected the force push. I must not push or retry it; close the plan, report where the branch stands and stop.")
	s.setTasks(r, "dddddd", "Mark the work done; the push is left to the user")
	r = s.llm(1500, 210, "", "")
	s.emit(s.b.AgentMessage(r, "Understood: I did not push. The rebased branch `fix/lru-eviction` is ready locally: "+
		"all tests pass under `-race`, vet and lint are clean. `origin/fix/lru-eviction` still has the old commits; "+
		"when you want it updated, run `git push --force-with-lease origin fix/lru-eviction` or ask me to push."))
	s.status(model.StatusFinished)
}
