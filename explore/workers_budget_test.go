package explore_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// The workers' own memory (their expanders, buffers and stacks) is inside
// the budget: it counts in the search's memory, and workers that would
// take more than half of what the budget leaves the search are refused
// before they are made (300,000 workers took 2 GB under a 256 MiB budget).
func TestWorkersAreInsideTheMemoryBudget(t *testing.T) {
	spec, err := specs.Builtin().Lookup("bully")
	require.NoError(t, err)
	sys, err := spec.Build.System(model.Config{N: 16, InitialLeader: true}, nil)
	require.NoError(t, err)

	one, err := explore.Run(sys, explore.Options{Workers: 1})
	require.NoError(t, err)
	many, err := explore.Run(sys, explore.Options{Workers: 64})
	require.NoError(t, err)
	// 63 more workers: at least their two expanders (tens of KB each at
	// N=16) and their stacks.
	assert.Greater(t, many.MemBytes-one.MemBytes, int64(63*(8<<10)))

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = explore.Run(sys, explore.Options{Workers: 5000, MemoryBudget: 256 << 20})
	runtime.ReadMemStats(&after)
	require.Error(t, err)
	assert.Regexp(t, `^5000 workers need about \d+\.\d MiB \(\d+\.\d KiB each\), more than half of what the memory budget of 256\.0 MiB leaves the search: give at most \d+ workers, or a larger budget$`, err.Error())
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "the workers were not made (5,000 take some 350 MB)")
}
