package check_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
)

// Every checked verdict carries what its search proves and what limits it,
// so that no output can show a bare "holds": exhaustive, up to the channel
// bound (LeLann's SingleLeader holds at max-queue 1 and is violated at 2),
// sampled, or incomplete.
func TestEveryVerdictSaysWhatItsSearchProves(t *testing.T) {
	lelann := spec(t, "lelann")
	run := func(req check.Request) *check.Report {
		t.Helper()
		req.Continue = true
		rep, err := check.Run(req)
		require.NoError(t, err)
		return rep
	}

	rep := run(check.Request{Spec: spec(t, "chang-roberts"), Config: model.Config{N: 3}})
	for _, v := range rep.Verdicts {
		assert.Equal(t, check.Exhaustive, v.Proof, v.Name)
		assert.Empty(t, v.Caveat, v.Name)
	}

	rep = run(check.Request{Spec: lelann, Config: model.Config{N: 3, MaxCrashes: 1, MaxQueue: 1}})
	require.True(t, rep.Bounded())
	v := mchecktest.Verdict(rep, "SingleLeader")
	assert.Equal(t, check.Holds, v.Status)
	assert.Equal(t, check.UpToBound, v.Proof)
	assert.Contains(t, v.Caveat, "for the bounded model only: exhaustive up to 1 message per channel")
	v = mchecktest.Verdict(rep, "Termination")
	assert.Equal(t, check.Violated, v.Status)
	assert.Equal(t, check.CaveatRunUnbounded, v.Caveat)

	rep = run(check.Request{Spec: lelann, Config: model.Config{N: 3, MaxCrashes: 1, MaxQueue: 2}, Properties: []string{"SingleLeader"}})
	assert.Equal(t, check.Violated, mchecktest.Verdict(rep, "SingleLeader").Status, "the bound of 1 hid this violation")

	rep = run(check.Request{Spec: lelann, Config: model.Config{N: 3}, MaxStates: 10})
	require.False(t, rep.Stats.Complete)
	for _, v := range rep.Verdicts {
		assert.Equal(t, check.Incomplete, v.Proof, v.Name)
		assert.Contains(t, v.Caveat, "the search did not finish", v.Name)
	}

	rep = run(check.Request{Spec: lelann, Config: model.Config{N: 3}, Strategy: &check.Simulate{Seed: 1, Runs: 5, Depth: 100}})
	for _, v := range rep.Verdicts {
		assert.Equal(t, check.Sampled, v.Proof, v.Name)
		assert.Contains(t, v.Caveat, "sampled", v.Name)
	}
}
