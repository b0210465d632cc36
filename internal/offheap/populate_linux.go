//go:build !race

package offheap

import "syscall"

// populate has the kernel fault in all of a mapping's pages at once: the
// table touches its pages at random, so it would take them all one fault
// at a time, which costs a small search more than the search (4.4 -> 5.3
// ms a check of hirschberg-sinclair --n 4, BenchmarkCheck).
const populate = syscall.MAP_POPULATE
