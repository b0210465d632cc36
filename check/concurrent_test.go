package check_test

import (
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// Two checks in one process (the explorer's page, go test) do not meet:
// neither changes a setting of the process (the runtime's memory limit is
// the program's), and each counts what it counts alone, with a budget.
func TestTwoChecksAtOnce(t *testing.T) {
	const limit = 3 << 30
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	spec := func(name string) specs.Spec {
		sp, err := specs.Builtin().Lookup(name)
		require.NoError(t, err)
		return sp
	}
	reqs := []check.Request{
		{Spec: spec("chang-roberts"), Config: model.Config{N: 3, MaxCrashes: 2}, Continue: true, MemoryBudget: 1 << 30},
		{Spec: spec("bully"), Config: model.Config{N: 3}, Continue: true, MemoryBudget: 1 << 30, Workers: 2},
	}
	alone := make([]explore.Stats, len(reqs))
	for i, r := range reqs {
		rep, err := check.Run(r)
		require.NoError(t, err)
		alone[i] = rep.Stats
	}
	require.Equal(t, int64(limit), debug.SetMemoryLimit(-1))

	together := make([]explore.Stats, len(reqs))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var limits []int64 // the limit as each check's progress saw it
	for i, r := range reqs {
		r.ProgressEvery = time.Nanosecond
		r.Progress = func(explore.Progress) {
			mu.Lock()
			limits = append(limits, debug.SetMemoryLimit(-1))
			mu.Unlock()
		}
		wg.Go(func() {
			rep, err := check.Run(r)
			if assert.NoError(t, err) {
				together[i] = rep.Stats
			}
		})
	}
	wg.Wait()
	require.NotEmpty(t, limits)
	for _, l := range limits {
		require.Equal(t, int64(limit), l, "a check changed the runtime's memory limit")
	}
	for i := range reqs {
		assert.Equal(t, alone[i].States, together[i].States)
		assert.Equal(t, alone[i].Transitions, together[i].Transitions)
		assert.True(t, together[i].Complete)
	}
}
