package explore_test

import (
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/offheap"
)

// The state table is mapped outside the Go heap: every search gives all of
// it back, however it ends, so that a process running search after search
// (tests, check's deepening) does not leak mappings; and a search changes
// no setting of the process (the runtime's memory limit is the program's).
func TestSearchesGiveBackWhatTheyMap(t *testing.T) {
	const limit = 1 << 40
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	var mapped atomic.Int64 // what the searches hold mapped
	offheap.Listen(func(bytes int64) { mapped.Add(bytes) })
	defer offheap.Listen(nil)
	// Under -race a smaller counter: its table still grows (from one
	// segment to two), its graph still outgrows the budget.
	states := explore.RaceSize(200_003, 70_001)
	for _, tc := range []struct {
		name string
		opt  explore.Options
	}{
		{"fingerprints, grown", explore.Options{}},
		{"indexed, grown", explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(zero)}, Liveness: true}},
		{"exact", explore.Options{Exact: true}},
		{"bitstate", explore.Options{Bitstate: 1 << 20}},
		{"index dropped by the budget", explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(zero)}, Liveness: true, MemoryBudget: 4 << 20}},
	} {
		most := int64(0)
		tc.opt.ProgressEvery = time.Nanosecond
		tc.opt.Progress = func(explore.Progress) {
			most = max(most, mapped.Load())
			require.Equal(t, int64(limit), debug.SetMemoryLimit(-1), "%s: the search leaves the runtime's limit alone", tc.name)
		}
		// A kernel of its own: the local states a kernel has numbered
		// count against the budget of every later search of it.
		big := newCounter(t, counter{k: states, add: 1, mul: 2, noAdd: -1})
		res := run(t, big, tc.opt)
		require.Zero(t, mapped.Load(), "%s: everything mapped is given back", tc.name)
		switch {
		case tc.opt.Bitstate > 0:
			require.Zero(t, most, "%s: the states are in the bits; no table is mapped beside them", tc.name)
		case offheap.Mapped:
			require.Positive(t, most, "%s: the table was mapped", tc.name)
		}
		if tc.opt.MemoryBudget > 0 {
			require.NotEmpty(t, res.LivenessSkipped, tc.name)
		} else {
			require.True(t, res.Complete, tc.name)
		}
	}
}
