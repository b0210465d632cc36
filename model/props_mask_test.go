package model_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/ts"
)

// A searcher can ask for fewer predicates of the expanded state and of its
// successors (ts.Batch): what it asks for is what a full expansion says,
// the rest is 0 (with none asked for, Props is 0), and step predicates
// always come with the successors.
func TestBatchAsksForSomePredicates(t *testing.T) {
	spec, err := specs.Builtin().Lookup("chang-roberts")
	require.NoError(t, err)
	sys, err := spec.Build.System(model.Config{N: 3, MaxCrashes: 1}, []string{"SingleLeader", "Termination", "NonParticipantForwardsNoElection"})
	require.NoError(t, err)
	names := sys.Predicates()
	bit := func(name string) uint64 {
		i := slices.Index(names, name)
		require.GreaterOrEqual(t, i, 0, "%s in %v", name, names)
		return 1 << i
	}
	inv, goal, step := bit("SingleLeader"), bit("Termination"), bit("NonParticipantForwardsNoElection")

	x, err := model.ExpanderOf(sys)
	require.NoError(t, err)
	lazy := x.(ts.LazyExpander)
	var b model.Batch
	x.Initial(&b)
	frontier := [][]byte{slices.Clone(b.State(0))}
	seen, checked, withGoal := map[string]bool{}, 0, 0
	for len(frontier) > 0 {
		state := frontier[0]
		frontier = frontier[1:]
		var full, some, none, lz model.Batch
		x.Expand(state, &full)
		some.StatePropsOnly, some.SuccPropsOnly = goal, inv
		x.Expand(state, &some)
		none.NoStateProps, none.NoSuccProps = true, true
		x.Expand(state, &none)
		lz.Lazy, lz.SuccPropsOnly = true, inv
		lazy.Expand(state, &lz)
		require.Equal(t, full.Props&(goal|step), some.Props, "the expanded state: the goal asked for, step bits set")
		require.Zero(t, none.Props, "the expanded state: nothing")
		require.Len(t, some.Succs, len(full.Succs))
		for i := range full.Succs {
			f := full.Succs[i].Props
			if f&goal != 0 {
				withGoal++ // a bit SuccPropsOnly leaves out
			}
			require.Equal(t, f&(inv|step), some.Succs[i].Props, "successor %d: the invariant asked for, and the step bits", i)
			require.Equal(t, f&step, none.Succs[i].Props, "successor %d: step bits only", i)
			lazy.Materialize(&lz, i)
			require.Equal(t, f&(inv|step), lz.Succs[i].Props, "successor %d, materialized", i)
			if k := string(full.State(i)); !seen[k] {
				seen[k] = true
				frontier = append(frontier, slices.Clone(full.State(i)))
			}
		}
		checked++
	}
	require.Equal(t, 268, checked, "every reachable state")
	require.Positive(t, withGoal)
}
