package tuitest

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// ResidentBytes is the process's resident memory (VmRSS), which sees the
// off-heap blocks of a big log that runtime.MemStats does not; 0 when it
// cannot be read.
func ResidentBytes() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && k == "VmRSS" {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
