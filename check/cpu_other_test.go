//go:build !unix

package check_test

import "time"

// cpuTime is unknown here: the benchmarks report wall time only.
func cpuTime() time.Duration { return 0 }
