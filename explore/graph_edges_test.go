package explore_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// crashOrRestartSteps counts, by the naive search, the transitions that
// are crashes or restarts, and all transitions.
func crashOrRestartSteps(sys model.System) (crashes, all int64) {
	_, all, _, _ = naiveBFSSteps(sys, func(y *model.Succ) {
		if k := model.Action(y.Action).Kind(); k == model.KindCrash || k == model.KindRestart {
			crashes++
		}
	})
	return crashes, all
}

// The fair-cycle check's graph leaves out crashes and restarts (no cycle
// goes through them, and they are not fair), and finds the same lassos as
// the graph of the measures, which keeps every step.
func TestLivenessGraphLeavesOutCrashesAndRestarts(t *testing.T) {
	for _, c := range []struct {
		algo     string
		cfg      model.Config
		violates bool // Termination
	}{
		// Under -race a smaller bully (a third of the test's time there).
		{"bully", model.Config{N: explore.RaceSize(4, 3), MaxCrashes: explore.RaceSize(3, 2), InitialLeader: true}, false},
		{"chang-roberts", model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, MaxQueue: 2}, true},
		{"lelann", model.Config{N: 3, MaxCrashes: 2, MaxQueue: 3}, true},
	} {
		spec, err := specs.Builtin().Lookup(c.algo)
		require.NoError(t, err)
		sys, err := spec.Build.System(c.cfg, []string{"SingleLeader", "Agreement", "Termination"})
		require.NoError(t, err)
		crashes, all := crashOrRestartSteps(sys)
		require.NotZero(t, crashes, c.algo)
		for _, workers := range []int{1, 2} {
			opt := explore.Options{Targets: explore.Targets{Goal: explore.GoalOf(2)}, Liveness: true, Continue: true, Workers: workers}
			live := run(t, sys, opt)
			require.True(t, live.Complete, c.algo)
			require.Equal(t, all, live.Transitions, c.algo)
			assert.Equal(t, all-crashes, live.GraphEdges, "%s, %d workers: the fair-cycle check's graph", c.algo, workers)

			opt.Measure = true
			both := run(t, sys, opt)
			assert.Equal(t, all, both.GraphEdges, "%s, %d workers: the graph of the measures", c.algo, workers)
			require.Equal(t, c.violates, len(live.Violations) > 0, c.algo)
			assert.Equal(t, both.Violations, live.Violations, "%s, %d workers: the lassos", c.algo, workers)
		}
	}
}
