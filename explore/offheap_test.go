package explore_test

import (
	"runtime/debug"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/offheap"
)

// The state table is mapped outside the Go heap, and the runtime's memory
// limit is lowered while it is: every search gives all of it back, however
// it ends, so that a process running search after search (tests, check's
// deepening) neither leaks mappings nor starves its heap.
func TestSearchesGiveBackWhatTheyMap(t *testing.T) {
	const limit = 1 << 40
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	big := newCounter(t, counter{k: 200_003, add: 1, mul: 2, noAdd: -1})
	for _, tc := range []struct {
		name string
		opt  explore.Options
	}{
		{"fingerprints, grown", explore.Options{}},
		{"indexed, grown", explore.Options{Goal: explore.GoalOf(zero), Liveness: true}},
		{"exact", explore.Options{Exact: true}},
		{"bitstate", explore.Options{Bitstate: 1 << 20}},
		{"index dropped by the budget", explore.Options{Goal: explore.GoalOf(zero), Liveness: true, MemoryBudget: 4 << 20}},
	} {
		lowest := int64(limit)
		tc.opt.ProgressEvery = time.Nanosecond
		tc.opt.Progress = func(explore.Progress) { lowest = min(lowest, debug.SetMemoryLimit(-1)) }
		res := run(t, big, tc.opt)
		require.Equal(t, int64(limit), debug.SetMemoryLimit(-1), "%s: the limit is back where it was", tc.name)
		if offheap.Mapped {
			require.Less(t, lowest, int64(limit), "%s: the table was mapped and counted", tc.name)
		}
		if tc.opt.MemoryBudget > 0 {
			require.NotEmpty(t, res.LivenessSkipped, tc.name)
		} else {
			require.True(t, res.Complete, tc.name)
		}
	}
}
