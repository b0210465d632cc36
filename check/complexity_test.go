package check_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

func complexity(t *testing.T, algo string, cfg model.Config) *check.Report {
	t.Helper()
	sp, err := specs.Builtin().Lookup(algo)
	require.NoError(t, err)
	rep, err := check.Run(check.Request{Spec: sp, Config: cfg, Complexity: true})
	require.NoError(t, err)
	require.True(t, rep.Stats.Complete)
	require.NotNil(t, rep.Complexity.Measures)
	return rep
}

// --ids perm is one search from every arrangement: its states are the
// disjoint union of the arrangements' state spaces, its min and max those
// of the best and worst arrangement, and its witnesses replay from their
// own arrangement.
func TestPermIsEveryArrangement(t *testing.T) {
	const n = 4
	perm := complexity(t, "chang-roberts", model.Config{N: n, Perm: true})
	assert.Equal(t, 24, perm.Arrangements)
	sp, err := specs.Builtin().Lookup("chang-roberts")
	require.NoError(t, err)
	sys, err := sp.Build.System(perm.Config, nil)
	require.NoError(t, err)
	// The arrangements, as the initial states show them.
	exp, err := model.ExpanderOf(sys)
	require.NoError(t, err)
	var b model.Batch
	exp.Initial(&b)
	seen := map[string]bool{}
	var arrangements [][]int
	for i := range b.Succs {
		var ids []int
		for _, p := range exp.Snapshot(b.State(i)).Processes {
			ids = append(ids, p.ID)
		}
		seen[fmt.Sprint(ids)] = true
		arrangements = append(arrangements, ids)
	}
	assert.Len(t, seen, 24, "every arrangement once")

	var states int64
	minT, maxT := 1<<30, -1
	worstSync := 0
	for _, ids := range arrangements {
		one := complexity(t, "chang-roberts", model.Config{N: n, IDs: ids})
		assert.Equal(t, 1, one.Arrangements)
		states += one.Stats.States
		minT, maxT = min(minT, one.Complexity.Measures.Total.Min), max(maxT, one.Complexity.Measures.Total.Max)
		worstSync = max(worstSync, one.Complexity.Sync.Latency)
	}
	m := perm.Complexity.Measures
	assert.Equal(t, states, perm.Stats.States)
	assert.Equal(t, minT, m.Total.Min)
	assert.Equal(t, maxT, m.Total.Max)
	assert.Equal(t, n*(n+1)/2+n, m.Total.Max)
	assert.Equal(t, worstSync, perm.Complexity.Sync.Latency)

	for _, name := range perm.Complexity.WitnessNames() {
		f, err := perm.WitnessFile(name)
		require.NoError(t, err)
		require.NoError(t, trace.Verify(sys, f), name)
	}
	f, err := perm.WitnessFile("max")
	require.NoError(t, err)
	var arrangement []int
	for _, p := range f.Steps[0].State.Processes {
		arrangement = append(arrangement, p.ID)
	}
	assert.Equal(t, []int{1, 4, 3, 2}, arrangement, "the worst arrangement: IDs decreasing clockwise (the first such in lexicographic order)")
}

// Every measure has a min and a max witness, and the schedule one: a
// complete run, or for an unbounded maximum the lasso whose cycle sends,
// each a trace file that replays. Chang-Roberts, N=3, with the unreliable
// detector: a false suspicion starts an election that can repeat forever.
func TestWitnessFiles(t *testing.T) {
	rep := complexity(t, "chang-roberts", model.Config{N: 3, Detector: model.Unreliable, InitialLeader: true, MaxQueue: 2})
	c := rep.Complexity
	assert.Equal(t, []string{"min", "max", "min:ELECTION", "max:ELECTION", "min:ELECTED", "max:ELECTED", "min:lost", "max:lost", "sync"}, c.WitnessNames())
	sp, err := specs.Builtin().Lookup("chang-roberts")
	require.NoError(t, err)
	sys, err := sp.Build.System(rep.Config, nil)
	require.NoError(t, err)
	for _, name := range c.WitnessNames() {
		f, err := rep.WitnessFile(name)
		require.NoError(t, err, name)
		assert.Equal(t, "messages."+name, f.Property)
		require.NoError(t, trace.Verify(sys, f), name)
		if name == "max" {
			assert.Equal(t, cex.Lasso, f.Kind, "the maximum is unbounded")
			require.NotNil(t, f.CycleStart)
		} else if name == "min" || name == "sync" {
			assert.Equal(t, cex.Witness, f.Kind, name)
			assert.Nil(t, f.CycleStart, name)
		}
	}
	_, err = rep.WitnessFile("median")
	assert.EqualError(t, err, `no witness "median": use one of min, max, min:ELECTION, max:ELECTION, min:ELECTED, max:ELECTED, min:lost, max:lost, sync`)
}
