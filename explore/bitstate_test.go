package explore_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

func buildSys(t *testing.T, algo string, cfg model.Config) model.System {
	t.Helper()
	spec, err := specs.Builtin().Lookup(algo)
	require.NoError(t, err)
	sys, err := spec.Build.System(cfg, []string{"SingleLeader", "Agreement", "Termination"})
	require.NoError(t, err)
	return sys
}

// With a bit array far larger than the state space, bitstate search finds
// exactly what the exhaustive search finds, at any number of workers.
func TestBitstateWithRoomMatchesExhaustive(t *testing.T) {
	for _, c := range []diffConfig{
		{"chang-roberts", model.Config{N: 3, MaxCrashes: 2}},
		{"hirschberg-sinclair", model.Config{N: 4}},
		{"bully", model.Config{N: 3}},
	} {
		t.Run(fmt.Sprintf("%s/%+v", c.algo, c.cfg), func(t *testing.T) {
			sys := buildSys(t, c.algo, c.cfg)
			full, err := explore.Run(sys, explore.Options{Continue: true})
			require.NoError(t, err)
			for _, workers := range []int{1, 2} {
				bs, err := explore.Run(sys, explore.Options{Continue: true, Bitstate: 16 << 20, Workers: workers})
				require.NoError(t, err)
				assert.Equal(t, full.States, bs.States)
				assert.Equal(t, full.Transitions, bs.Transitions)
				assert.Equal(t, full.Depth, bs.Depth)
				require.NotNil(t, bs.Bitstate)
				assert.Equal(t, int64(16<<20), bs.Bitstate.Bytes)
				assert.Greater(t, bs.Bitstate.Coverage, 0.9999)
			}
			assert.Nil(t, full.Bitstate)
		})
	}
}

// A tiny bit array misses states, and its coverage bound says so; the bound
// is conservative (never above the true fraction).
func TestBitstateTooSmallMissesStatesAndSaysSo(t *testing.T) {
	sys := buildSys(t, "chang-roberts", model.Config{N: 3, MaxCrashes: 2})
	full, err := explore.Run(sys, explore.Options{Continue: true})
	require.NoError(t, err)
	for _, size := range []int64{256, 4 << 10} {
		bs, err := explore.Run(sys, explore.Options{Continue: true, Bitstate: size})
		require.NoError(t, err)
		assert.Less(t, bs.States, full.States, "%d bytes", size)
		actual := float64(bs.States) / float64(full.States)
		assert.LessOrEqual(t, bs.Bitstate.Coverage, actual, "the bound must not promise more than was covered")
		assert.Greater(t, bs.Bitstate.Fill, 0.0)
		assert.Greater(t, bs.Bitstate.MissChance, 0.0)
	}
}

// Violations are still found, with traces that replay, and no liveness
// graph is kept.
func TestBitstateFindsViolations(t *testing.T) {
	sys := buildSys(t, "bully", model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, InitialLeader: true})
	opts := explore.Options{Targets: explore.Targets{Invariants: []int{0}, Goal: explore.GoalOf(2)}, Liveness: true, Continue: true}
	full, err := explore.Run(sys, opts)
	require.NoError(t, err)
	opts.Bitstate = 1 << 20
	bs, err := explore.Run(sys, opts)
	require.NoError(t, err)
	v := bs.Violated(cex.Invariant, 0)
	require.NotNil(t, v)
	assert.Equal(t, full.Violated(cex.Invariant, 0).Trace, v.Trace)
	assert.Equal(t, "a bitstate search keeps no state graph", bs.LivenessSkipped)
	assert.Nil(t, bs.Violated(cex.FairCycle, 2))
}

// A hash seed changes which states a small bit array takes for visited,
// not what a search with room finds: seeded searches of a tiny array miss
// different states (their sketches' union is larger than any one of
// them), each the same at any number of workers, and with room a seeded
// search finds every state, which its sketch counts.
func TestBitstateSeedsMissOtherStates(t *testing.T) {
	sys := buildSys(t, "chang-roberts", model.Config{N: 3, MaxCrashes: 2})
	full, err := explore.Run(sys, explore.Options{Continue: true})
	require.NoError(t, err)

	roomy, err := explore.Run(sys, explore.Options{Continue: true, Bitstate: 16 << 20, BitstateSeed: 0x5eed})
	require.NoError(t, err)
	assert.Equal(t, full.States, roomy.States)
	assert.Equal(t, full.Transitions, roomy.Transitions)
	assert.Equal(t, uint64(0x5eed), roomy.Bitstate.Seed)
	assert.InEpsilon(t, float64(full.States), roomy.Bitstate.Seen.Estimate(), 0.05, "the sketch counts the states explored")

	union := explore.NewSketch()
	most := int64(0)
	counts := map[int64]bool{}
	for _, seed := range []uint64{1, 2, 3, 4} {
		one, err := explore.Run(sys, explore.Options{Continue: true, Bitstate: 256, BitstateSeed: seed, Workers: 1})
		require.NoError(t, err)
		two, err := explore.Run(sys, explore.Options{Continue: true, Bitstate: 256, BitstateSeed: seed, Workers: 2})
		require.NoError(t, err)
		assert.Equal(t, one.States, two.States, "seed %d: the same search at any number of workers", seed)
		assert.Equal(t, one.Bitstate.Seen, two.Bitstate.Seen)
		assert.Less(t, one.States, full.States/2, "seed %d: 256 bytes miss most states", seed)
		counts[one.States] = true
		most = max(most, one.States)
		union.Merge(one.Bitstate.Seen)
	}
	assert.Greater(t, len(counts), 1, "other seeds, other searches")
	assert.Greater(t, union.Estimate(), 1.2*float64(most), "together the seeds explored more states than any one")

	unseeded, err := explore.Run(sys, explore.Options{Continue: true, Bitstate: 256})
	require.NoError(t, err)
	assert.Nil(t, unseeded.Bitstate.Seen, "only a seeded search (a swarm member) sketches its states")
	assert.Zero(t, unseeded.Bitstate.Seed)

	_, err = explore.Run(sys, explore.Options{BitstateSeed: 1})
	assert.ErrorContains(t, err, "a hash seed is for a bitstate search's bit array")
}
