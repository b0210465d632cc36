package check_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

func simulate(t *testing.T, algo string, cfg model.Config, sim check.Simulate, workers int, cont bool) *check.Report {
	t.Helper()
	spec, err := specs.Builtin().Lookup(algo)
	require.NoError(t, err)
	rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Strategy: &sim, Workers: workers, Continue: cont})
	require.NoError(t, err)
	return rep
}

// comparable is what must not depend on the workers: everything but the
// times, the memory and the saturation curve (which is about time).
func comparable(r *check.Report) any {
	st := r.Stats
	st.Elapsed, st.MemBytes = 0, 0
	sim := *r.Simulation
	sim.NewLate = 0
	var files []*trace.File
	for _, f := range r.Files() {
		files = append(files, f)
	}
	return []any{st, sim, r.Found, r.Verdicts[0].Status, r.Verdicts[1].Status, r.Verdicts[2].Status, files}
}

// The same seed gives the same runs, counts and counterexamples at 1, 2
// and 4 workers, with either scheduler, stopping at the first violation or
// going on.
func TestSimulationIsTheSameAtAnyWorkerCount(t *testing.T) {
	cfg := model.Config{N: 5, MaxCrashes: 1}
	for _, sched := range []explore.Scheduler{explore.Uniform, explore.Faults} {
		for _, cont := range []bool{false, true} {
			sim := check.Simulate{Seed: 11, Runs: 400, Depth: 200, Scheduler: sched}
			one := simulate(t, "chang-roberts", cfg, sim, 1, cont)
			require.True(t, one.Violated(), "%v continue=%v", sched, cont)
			for _, w := range []int{2, 4} {
				assert.Equal(t, comparable(one), comparable(simulate(t, "chang-roberts", cfg, sim, w, cont)), "%v continue=%v workers=%d", sched, cont, w)
			}
		}
	}
}

// The run seed printed beside a counterexample replays that run alone: the
// same run, shortened to the same trace.
func TestRunSeedReplaysTheRun(t *testing.T) {
	cfg := model.Config{N: 5, MaxCrashes: 1}
	all := simulate(t, "chang-roberts", cfg, check.Simulate{Seed: 3, Runs: 1000, Depth: 200}, 2, false)
	require.Len(t, all.Found, 1)
	f := all.Found[0]
	require.Positive(t, f.Run, "not the first run, so that the replay shows it is that run's seed")
	one := simulate(t, "chang-roberts", cfg, check.Simulate{Seed: f.RunSeed, One: true, Runs: 1, Depth: 200}, 1, false)
	require.Len(t, one.Found, 1)
	assert.Equal(t, int64(1), one.Simulation.Runs)
	assert.Equal(t, f.RawSteps, one.Found[0].RawSteps)
	assert.Equal(t, f.Steps, one.Found[0].Steps)
	assert.Equal(t, all.Files(), one.Files())
}

// Where simulation is for: at N = 16, where no search finishes, the first
// seed's runs (the default scheduler, faults) find the circulating or lost
// election (Termination) within a hundred runs, shortened to a counterexample of at most 40 steps that
// replays (check.Run verifies every counterexample).
func TestSimulationFindsTerminationAtSixteen(t *testing.T) {
	rep := simulate(t, "chang-roberts", model.Config{N: 16, MaxCrashes: 1}, check.Simulate{Seed: 0, Runs: 1000, Depth: 1000}, 0, false)
	require.Len(t, rep.Found, 1)
	f := rep.Found[0]
	assert.Equal(t, "Termination", f.Property)
	assert.Equal(t, cex.Stuck, f.Kind)
	assert.Equal(t, int64(13), f.Run)
	assert.Equal(t, 24, f.RawSteps)
	assert.Equal(t, 22, f.Steps)
	assert.Equal(t, int64(14), rep.Simulation.Runs, "runs 0..13, the last of them the violation's")
	assert.Equal(t, check.Sampled, rep.Proof)
	assert.False(t, rep.Stats.Complete)
	v := rep.Verdicts[2]
	require.Equal(t, check.Violated, v.Status)
	require.NotNil(t, v.File)
	assert.Len(t, v.File.Steps, 23)
}

// A simulation that finds nothing says so, and proves nothing: the
// properties stay unknown, with the number of runs.
func TestSimulationWithoutViolationProvesNothing(t *testing.T) {
	rep := simulate(t, "bully", model.Config{N: 3, MaxCrashes: 2, InitialLeader: true}, check.Simulate{Seed: 5, Runs: 300, Depth: 100, Scheduler: explore.Faults}, 2, false)
	assert.False(t, rep.Violated())
	assert.True(t, rep.Stats.Complete, "the runs asked for were taken")
	assert.Equal(t, int64(300), rep.Simulation.Runs)
	assert.Equal(t, check.Sampled, rep.Proof)
	assert.Equal(t, "simulation", rep.Strategy)
	for _, v := range rep.Verdicts {
		assert.Equal(t, check.Unknown, v.Status, v.Name)
		assert.Equal(t, "no violation in 300 random runs; a simulation samples runs, so this is not a proof", v.Summary)
	}
	ends := rep.Simulation.Ends
	assert.Equal(t, int64(300), ends[explore.EndQuiescent], "every run crashes what it can and ends quiescent")
}

// What each strategy proves: exhaustive, up to the bound, sampled.
func TestStrategiesSayWhatTheyProve(t *testing.T) {
	spec, err := specs.Builtin().Lookup("ring")
	require.NoError(t, err)
	for _, tc := range []struct {
		req      check.Request
		strategy string
		proof    check.Proof
		status   check.Status
	}{
		{check.Request{Config: model.Config{N: 3}}, "breadth-first", check.Exhaustive, check.Holds},
		{check.Request{Config: model.Config{N: 3, MaxQueue: 1}, Properties: []string{"SingleLeader"}}, "breadth-first", check.UpToBound, check.Holds},
		{check.Request{Config: model.Config{N: 3}, Strategy: check.Bitstate{Bytes: 1 << 20}}, "bitstate", check.Sampled, check.Unknown},
		{check.Request{Config: model.Config{N: 3}, Strategy: &check.Simulate{Runs: 10, Depth: 100}}, "simulation", check.Sampled, check.Unknown},
	} {
		tc.req.Spec = spec
		rep, err := check.Run(tc.req)
		require.NoError(t, err)
		assert.Equal(t, tc.strategy, rep.Strategy)
		assert.Equal(t, tc.proof, rep.Proof, tc.strategy)
		assert.Equal(t, tc.status, rep.Verdicts[0].Status, tc.strategy)
	}
}

// Interrupted (Ctrl-C: the Context), a simulation says so and proves even
// less: the verdicts are unknown because it did not finish, not because it
// sampled.
func TestInterruptedSimulation(t *testing.T) {
	spec, err := specs.Builtin().Lookup("ring")
	require.NoError(t, err)
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("SIGINT (Ctrl-C)"))
	rep, err := check.Run(check.Request{Spec: spec, Config: model.Config{N: 3}, Context: ctx, Strategy: &check.Simulate{Runs: 100, Depth: 100}})
	require.NoError(t, err)
	assert.False(t, rep.Stats.Complete)
	assert.Equal(t, explore.StopInterrupted, rep.Stats.Stop)
	assert.Equal(t, "interrupted: SIGINT (Ctrl-C)", rep.Stats.Stopped)
	assert.Equal(t, int64(0), rep.Simulation.Runs)
	assert.Equal(t, check.Unknown, rep.Verdicts[0].Status)
	assert.Equal(t, "the search did not finish: interrupted: SIGINT (Ctrl-C)", rep.Verdicts[0].Summary)
}

// One run is one run, not "1 random runs".
func TestSimulationOfOneRunSaysRun(t *testing.T) {
	rep := simulate(t, "bully", model.Config{N: 3, MaxCrashes: 2, InitialLeader: true}, check.Simulate{Seed: 5, Runs: 1, Depth: 100, Scheduler: explore.Faults}, 1, false)
	require.False(t, rep.Violated())
	for _, v := range rep.Verdicts {
		assert.Equal(t, "no violation in 1 random run; a simulation samples runs, so this is not a proof", v.Summary, v.Name)
	}
}
