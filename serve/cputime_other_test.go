//go:build !unix

package serve

import "time"

// cpuTime is not measured here; benchmarks report no CPU figure.
func cpuTime() time.Duration { return 0 }
