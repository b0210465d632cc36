package mchecktest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/specs/changroberts"
)

// A simulation finds the broken algorithm's violation, shortened and
// replayed, at a size the full search would not finish: Check fails with it.
func TestSimulateFailsOnTheViolationItFinds(t *testing.T) {
	var tb fakeTB
	rep := mchecktest.Check(&tb, selfish{}, mchecktest.Config{N: 10, Check: "SingleLeader",
		Simulate: &mchecktest.Simulation{Runs: 50, Seed: 7}})
	require.Len(t, tb.errors, 1, tb.fatals)
	assert.True(t, strings.HasPrefix(tb.errors[0], "SingleLeader VIOLATED: "), tb.errors[0])
	assert.Equal(t, check.Sampled, rep.Proof)
	assert.Equal(t, check.Violated, mchecktest.Status(rep, "SingleLeader"))
	require.NotNil(t, rep.Simulation)
	assert.EqualValues(t, 7, rep.Simulation.Seed)
}

// A sample that finds nothing proves nothing: Check passes, and says so;
// the properties stay unknown, never "holds". The same seed gives the same
// report.
func TestSimulateWithoutViolationProvesNothing(t *testing.T) {
	cfg := mchecktest.Config{N: 6, Crashes: 1, Check: "safety", Simulate: &mchecktest.Simulation{Runs: 200, Depth: 60, Seed: 3, Scheduler: "faults"}}
	var tb fakeTB
	rep := mchecktest.Check(&tb, changroberts.Algorithm{}, cfg)
	require.Empty(t, tb.errors)
	require.Empty(t, tb.fatals)
	require.Len(t, tb.logs, 1)
	assert.Contains(t, tb.logs[0], "200 random runs")
	assert.Contains(t, tb.logs[0], "a sample, so no property is shown to hold")
	for _, v := range rep.Verdicts {
		if v.Status != check.Unchecked {
			assert.Equal(t, check.Unknown, v.Status, v.Name)
		}
	}
	again, err := mchecktest.Run(changroberts.Algorithm{}, cfg)
	require.NoError(t, err)
	assert.Equal(t, rep.Stats.States, again.Stats.States)
	assert.Equal(t, rep.Simulation.Runs, again.Simulation.Runs)
}

func TestSimulateBadSettingsAreFatal(t *testing.T) {
	for sim, want := range map[mchecktest.Simulation]string{
		{Scheduler: "random"}: `Config.Simulate.Scheduler: no scheduler "random": use faults or uniform`,
		{Runs: -1}:            "Config.Simulate.Runs -1 would take no run",
		{Depth: -2}:           "Config.Simulate.Depth -2 would take no step",
	} {
		var tb fakeTB
		mchecktest.Check(&tb, changroberts.Algorithm{}, mchecktest.Config{Simulate: &sim})
		require.Len(t, tb.fatals, 1)
		assert.Contains(t, tb.fatals[0], want)
	}
}
