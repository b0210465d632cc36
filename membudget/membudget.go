// Package membudget is what a program that runs checks tells the Go runtime
// about the memory budget of a check: its memory limit (less what the state
// table maps outside the heap) and how often to collect. It changes
// process-wide settings, so only programs use it (cmd/mcheck, a course's own
// command built on cli.MainWith), never library code.
package membudget

import (
	"math"
	"os"
	"runtime/debug"
	"sync"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/offheap"
)

// Apply sets the process's memory settings for a check with this memory
// budget. A program calls it, as the hook cli.Hooks.Budget; library code
// never does, since the settings are the whole process's.
func Apply(budget int64) {
	// The runtime's collector keeps the heap within the budget (a little
	// below it, for the program's code and what the runtime does not count).
	debug.SetMemoryLimit(explore.MemoryLimit(budget))
	// The state table is mapped outside the heap, which the runtime's limit
	// does not count: the heap gets the limit less what is mapped, or it
	// would grow into the room the table already takes.
	offheap.Listen(lowerLimit)
	if os.Getenv("GOGC") == "" {
		// The search's memory is a few large arrays without pointers, so
		// collecting often costs almost nothing, and the default (let the
		// heap double between collections) only raises the peak: 781 -> 666
		// MB for bully --n 4 --initial-leader=false at the same speed. With
		// the state table mapped outside the heap, 10 saves only 3-4 MB
		// more there, for about 5% more CPU (BENCHMARKS.md).
		debug.SetGCPercent(25)
	}
}

// limitMu serialises the read-modify-write of the runtime's memory limit.
var limitMu sync.Mutex

// lowerLimit lowers the runtime's memory limit by what is mapped (raises
// it by what is unmapped), when a limit is set.
func lowerLimit(mapped int64) {
	limitMu.Lock()
	defer limitMu.Unlock()
	cur := debug.SetMemoryLimit(-1)
	if cur == math.MaxInt64 {
		return // no limit
	}
	// The search keeps its own data (these arrays among it) within a share
	// of the budget, so the limit stays well above zero; 0 would still be
	// a valid limit (collect all the time) rather than a negative one,
	// which the runtime ignores.
	debug.SetMemoryLimit(max(cur-mapped, 0))
}
