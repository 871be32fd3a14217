package files

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelEach runs a job for every index in [0, n) on up to GOMAXPROCS
// goroutines and returns when all are done. Indices are handed out in
// order from a shared counter, so a slow item never holds up a worker's
// share of the rest. newWorker is called once per goroutine and returns
// that goroutine's job, so per-worker state (a read buffer) is built once
// and never shared. Each job writes its result to its own index, so the
// caller needs no lock.
func parallelEach(n int, newWorker func() func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			job := newWorker()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				job(i)
			}
		}()
	}
	wg.Wait()
}
