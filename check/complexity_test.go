package check_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/properties"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/trace"
)

func complexity(t *testing.T, algo string, cfg model.Config) *check.Report {
	t.Helper()
	sp, err := specs.Builtin().Lookup(algo)
	require.NoError(t, err)
	rep, err := check.Run(check.Request{Spec: sp, Config: cfg, Complexity: true, Properties: properties.All})
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
	var states int64
	minT, maxT := 1<<30, -1
	worstSync := 0
	ids := []int{1, 2, 3, 4}
	for {
		one := complexity(t, "chang-roberts", model.Config{N: n, IDs: append([]int(nil), ids...)})
		assert.Equal(t, 1, one.Arrangements)
		states += one.Stats.States
		minT, maxT = min(minT, one.Complexity.Measures.Total.Min), max(maxT, one.Complexity.Measures.Total.Max)
		worstSync = max(worstSync, one.Complexity.Sync.Latency)
		if !nextPerm(ids) {
			break
		}
	}
	m := perm.Complexity.Measures
	assert.Equal(t, states, perm.Stats.States)
	assert.Equal(t, minT, m.Total.Min)
	assert.Equal(t, maxT, m.Total.Max)
	assert.Equal(t, n*(n+1)/2+n, m.Total.Max)
	assert.Equal(t, worstSync, perm.Complexity.Sync.Latency)

	sp, err := specs.Builtin().Lookup("chang-roberts")
	require.NoError(t, err)
	sys, err := sp.Build(perm.Config, properties.Predicates())
	require.NoError(t, err)
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

func nextPerm(xs []int) bool {
	i := len(xs) - 2
	for i >= 0 && xs[i] >= xs[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(xs) - 1
	for xs[j] <= xs[i] {
		j--
	}
	xs[i], xs[j] = xs[j], xs[i]
	for a, b := i+1, len(xs)-1; a < b; a, b = a+1, b-1 {
		xs[a], xs[b] = xs[b], xs[a]
	}
	return true
}
