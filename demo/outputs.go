package demo

import (
	"fmt"
	"strings"
)

// Terminal outputs of the demo run, written to match the repository's
// files at each point of the story.

const lsOutput = `total 44
drwxr-xr-x 4 openhands openhands 4096 Nov 18 13:58 .
drwxr-xr-x 3 openhands openhands 4096 Nov 18 13:58 ..
drwxr-xr-x 8 openhands openhands 4096 Nov 18 13:58 .git
drwxr-xr-x 3 openhands openhands 4096 Nov 18 13:58 .github
-rw-r--r-- 1 openhands openhands   24 Nov 18 13:58 .gitignore
-rw-r--r-- 1 openhands openhands 1069 Nov 18 13:58 LICENSE
-rw-r--r-- 1 openhands openhands  412 Nov 18 13:58 Makefile
-rw-r--r-- 1 openhands openhands  318 Nov 18 13:58 README.md
-rw-r--r-- 1 openhands openhands 2291 Nov 18 13:58 cache.go
-rw-r--r-- 1 openhands openhands 1347 Nov 18 13:58 cache_test.go
-rw-r--r-- 1 openhands openhands   51 Nov 18 13:58 go.mod`

const gitLogOutput = `e8a2c4d (HEAD -> fix/lru-eviction, origin/fix/lru-eviction) wip: notes on the hit-rate drop in the load test
9c41e2a (origin/main, main) cache: refresh TTL when an existing key is set
5b8d0f3 cache: count evictions in Stats
e07a6c1 ci: run tests on Go 1.24 and 1.25
2f9be48 cache: make Cache generic over key and value
a1d3c95 cache: move expired entries out on Get
71c0b2e readme: usage example
03e5f7a initial import`

// existingTestsPass is the verbose run of the tests the repository had
// before the fix; every later run of the suite starts with it.
const existingTestsPass = `=== RUN   TestGetSet
--- PASS: TestGetSet (0.00s)
=== RUN   TestExpiry
--- PASS: TestExpiry (0.00s)
=== RUN   TestSetRefreshesTTL
--- PASS: TestSetRefreshesTTL (0.00s)
`

// evictionTestPass is the first new test once the eviction order is fixed.
const evictionTestPass = `=== RUN   TestEvictsOldestWithoutReads
--- PASS: TestEvictsOldestWithoutReads (0.00s)
`

// hitRateFailRun and hitRatePassRun are the hit-rate test before and after
// the fix, shared by the full-suite runs and the single-test runs.
const hitRateFailRun = `=== RUN   TestHitRateZipf
    hitrate_test.go:23: hits=7514 misses=192486 evictions=191486 hit rate 3.8%
    hitrate_test.go:25: hit rate 3.8%, want at least 50%
--- FAIL: TestHitRateZipf (0.09s)
FAIL
`

const hitRatePassRun = `=== RUN   TestHitRateZipf
    hitrate_test.go:23: hits=140566 misses=59434 evictions=58434 hit rate 70.3%
--- PASS: TestHitRateZipf (0.11s)
PASS
`

const testsPassBefore = existingTestsPass + `PASS
ok  	github.com/northwind-labs/ttlcache	0.004s`

const testsFailBoth = existingTestsPass + `=== RUN   TestEvictsOldestWithoutReads
    eviction_test.go:16: Get("a") = hit, want miss: a was the least recently used entry
    eviction_test.go:19: Get("c") = miss, want hit: c was written after a
--- FAIL: TestEvictsOldestWithoutReads (0.00s)
=== RUN   TestGetRefreshesRecency
    eviction_test.go:36: Get("b") = hit, want miss: b was the least recently used entry
--- FAIL: TestGetRefreshesRecency (0.00s)
` + hitRateFailRun + `FAIL	github.com/northwind-labs/ttlcache	0.101s
FAIL`

const testsFailRecency = existingTestsPass + evictionTestPass + `=== RUN   TestGetRefreshesRecency
    eviction_test.go:33: Get("a") = miss, want hit: a was read after b was written
    eviction_test.go:36: Get("b") = hit, want miss: b was the least recently used entry
--- FAIL: TestGetRefreshesRecency (0.00s)
=== RUN   TestHitRateZipf
    hitrate_test.go:23: hits=129871 misses=70129 evictions=69129 hit rate 64.9%
--- PASS: TestHitRateZipf (0.10s)
FAIL
FAIL	github.com/northwind-labs/ttlcache	0.112s
FAIL`

const testsPassAll = existingTestsPass + evictionTestPass + `=== RUN   TestGetRefreshesRecency
--- PASS: TestGetRefreshesRecency (0.00s)
` + hitRatePassRun + `ok  	github.com/northwind-labs/ttlcache	0.119s`

// testGoroutineOrigin is where the race detector says both racing test
// goroutines were started: the same line of the same test.
const testGoroutineOrigin = `  github.com/northwind-labs/ttlcache.TestConcurrentUse()
      /workspace/project/ttlcache/cache_test.go:{T_GO} +0x84
  testing.tRunner()
      /usr/local/go/src/testing/testing.go:1792 +0x225
  testing.(*T).Run.gowrap1()
      /usr/local/go/src/testing/testing.go:1851 +0x44
`

const raceOutput = `==================
WARNING: DATA RACE
Write at 0x00c0001a4018 by goroutine 9:
  container/list.(*List).move()
      /usr/local/go/src/container/list/list.go:124 +0x1e4
  container/list.(*List).MoveToFront()
      /usr/local/go/src/container/list/list.go:187 +0x10d
  github.com/northwind-labs/ttlcache.(*Cache[go.shape.string,go.shape.int]).Get()
      /workspace/project/ttlcache/cache.go:{GET_MOVE} +0x2c4
  github.com/northwind-labs/ttlcache.TestConcurrentUse.func1()
      /workspace/project/ttlcache/cache_test.go:{T_GET} +0x15a

Previous write at 0x00c0001a4018 by goroutine 8:
  container/list.(*List).insert()
      /usr/local/go/src/container/list/list.go:96 +0x24e
  container/list.(*List).PushFront()
      /usr/local/go/src/container/list/list.go:151 +0x9a
  github.com/northwind-labs/ttlcache.(*Cache[go.shape.string,go.shape.int]).Set()
      /workspace/project/ttlcache/cache.go:{SET_PUSH} +0x4f1
  github.com/northwind-labs/ttlcache.TestConcurrentUse.func1()
      /workspace/project/ttlcache/cache_test.go:{T_SET} +0x12e

Goroutine 9 (running) created at:
` + testGoroutineOrigin + `
Goroutine 8 (running) created at:
` + testGoroutineOrigin + `==================
==================
WARNING: DATA RACE
Read at 0x00c0001b6030 by goroutine 11:
  runtime.mapaccess2_faststr()
      /usr/local/go/src/internal/runtime/maps/runtime_faststr.go:162 +0x0
  github.com/northwind-labs/ttlcache.(*Cache[go.shape.string,go.shape.int]).Get()
      /workspace/project/ttlcache/cache.go:{GET_MAP} +0x9c
  github.com/northwind-labs/ttlcache.TestConcurrentUse.func1()
      /workspace/project/ttlcache/cache_test.go:{T_GET} +0x15a

Previous write at 0x00c0001b6030 by goroutine 8:
  runtime.mapassign_faststr()
      /usr/local/go/src/internal/runtime/maps/runtime_faststr.go:263 +0x0
  github.com/northwind-labs/ttlcache.(*Cache[go.shape.string,go.shape.int]).Set()
      /workspace/project/ttlcache/cache.go:{SET_MAP} +0x53c
  github.com/northwind-labs/ttlcache.TestConcurrentUse.func1()
      /workspace/project/ttlcache/cache_test.go:{T_SET} +0x12e
==================
--- FAIL: TestConcurrentUse (0.03s)
    testing.go:1490: race detected during execution of test
FAIL
FAIL	github.com/northwind-labs/ttlcache	0.061s
FAIL`

const racePass = `ok  	github.com/northwind-labs/ttlcache	1.187s`

const benchOutput = `goos: linux
goarch: amd64
pkg: github.com/northwind-labs/ttlcache
cpu: AMD EPYC 7B13
BenchmarkGetHit-8        	31522184	        37.84 ns/op	       0 B/op	       0 allocs/op
BenchmarkSetEvict-8      	11250637	       106.3 ns/op	      48 B/op	       1 allocs/op
BenchmarkParallelGet-8   	 9148116	       131.9 ns/op	       0 B/op	       0 allocs/op
PASS
ok  	github.com/northwind-labs/ttlcache	4.116s`

const gitStatusOutput = `On branch fix/lru-eviction
Changes not staged for commit:
  (use "git add <file>..." to update what will be committed)
  (use "git restore <file>..." to discard changes in working directory)
	modified:   README.md
	modified:   cache.go
	modified:   cache_test.go

Untracked files:
  (use "git add <file>..." to include in what will be committed)
	cache_bench_test.go
	eviction_test.go
	hitrate_test.go

no changes added to commit (use "git add" and/or "git commit -a")`

const commitOutput = `[fix/lru-eviction 4e2d7b1] cache: evict the least recently used entry and lock for concurrent use
 6 files changed, 169 insertions(+), 9 deletions(-)
 create mode 100644 cache_bench_test.go
 create mode 100644 eviction_test.go
 create mode 100644 hitrate_test.go`

const rebaseConflict = `From github.com:northwind-labs/ttlcache
 * branch            main       -> FETCH_HEAD
   9c41e2a..b7f3a08  main       -> origin/main
Auto-merging cache.go
CONFLICT (content): Merge conflict in cache.go
error: could not apply 4e2d7b1... cache: evict the least recently used entry and lock for concurrent use
hint: Resolve all conflicts manually, mark them as resolved with
hint: "git add/rm <conflicted_files>", then run "git rebase --continue".
hint: You can instead skip this commit: run "git rebase --skip".
hint: To abort and get back to the state before "git rebase", run "git rebase --abort".
Could not apply 4e2d7b1... cache: evict the least recently used entry and lock for concurrent use`

const benchstatOutput = `goos: linux
goarch: amd64
pkg: github.com/northwind-labs/ttlcache
cpu: AMD EPYC 7B13
            │ /tmp/old.txt │            /tmp/new.txt             │
            │    sec/op    │    sec/op     vs base               │
GetHit-8       22.61n ± 1%   37.84n ± 2%  +67.36% (p=0.002 n=6)
SetEvict-8     91.02n ± 2%   106.3n ± 1%  +16.79% (p=0.002 n=6)
geomean        45.36n        63.42n       +39.81%`

const pushOutput = `Enumerating objects: 9, done.
Counting objects: 100% (9/9), done.
Delta compression using up to 8 threads
Compressing objects: 100% (5/5), done.
Writing objects: 100% (5/5), 1.94 KiB | 1.94 MiB/s, done.
Total 5 (delta 3), reused 0 (delta 0), pack-reused 0
remote: Resolving deltas: 100% (3/3), completed with 3 local objects.
To github.com:northwind-labs/ttlcache.git
 + e8a2c4d...c18a9f2 fix/lru-eviction -> fix/lru-eviction (forced update)`

const hitRateFail = hitRateFailRun + `FAIL	github.com/northwind-labs/ttlcache	0.097s
FAIL`

const hitRatePass = hitRatePassRun + `ok  	github.com/northwind-labs/ttlcache	0.118s`

const blameOutput = `2f9be48 cache: make Cache generic over key and value
diff --git a/cache.go b/cache.go
--- a/cache.go
+++ b/cache.go
@@ -70,8 +78,8 @@
-// evict removes the least recently used entry.
-func (c *Cache) evict() {
-	el := c.ll.Back()
+// evict removes the least recently used entry.
+func (c *Cache[K, V]) evict() {
+	el := c.ll.Front()
 	if el != nil {
 		c.removeElement(el)
 		c.stats.Evictions++
 	}
 }`

// wcOutput is ` + "`" + `wc -l` + "`" + ` of cache.go and cache_test.go.
func wcOutput(cache, test string) string {
	a, b := strings.Count(cache, "\n"), strings.Count(test, "\n")
	return fmt.Sprintf("%5d ./cache.go\n%5d ./cache_test.go\n%5d total", a, b, a+b)
}
