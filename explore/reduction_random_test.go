package explore_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// randomConfig draws one configuration of at most 4 processes: any
// algorithm, crash and restart budgets, detector, processes down from the
// start, initiators, duplicate IDs, channel bound and initial leader.
func randomConfig(r *rand.Rand) diffConfig {
	algos := []string{"ring", "chang-roberts", "lelann", "hirschberg-sinclair", "bully"}
	n := 2 + r.IntN(3)
	cfg := model.Config{
		N:             n,
		MaxCrashes:    r.IntN(n),
		MaxRestarts:   r.IntN(3) * r.IntN(2),
		Detector:      model.Detector(r.IntN(3)),
		InitialLeader: r.IntN(2) == 0,
		MaxQueue:      r.IntN(4), // 0: the default 2N
	}
	ids := make([]int, n)
	for p := range ids {
		ids[p] = p + 1
	}
	r.Shuffle(n, func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	if r.IntN(5) == 0 {
		cfg.Anonymous = true
		ids[r.IntN(n)] = ids[r.IntN(n)]
	}
	cfg.IDs = ids
	if r.IntN(4) == 0 {
		cfg.Down = []int{ids[r.IntN(n)]}
	}
	if r.IntN(3) == 0 {
		cfg.Initiators = []int{ids[r.IntN(n)]}
	}
	return diffConfig{algos[r.IntN(len(algos))], cfg}
}

// reductionAgrees runs configuration c in full and reduced, checking the
// invariants SingleLeader and Agreement, and requires the same violated
// invariants, the same reachable liveness-and-elected combinations (what
// every invariant the reduction may serve reads) and the same terminal
// states. It reports false for a configuration that is not one (the
// builder refuses it) or that is too large to compare here.
func reductionAgrees(t *testing.T, c diffConfig, maxStates int64) (compared, reduced bool) {
	t.Helper()
	spec, err := specs.Builtin().Lookup(c.algo)
	require.NoError(t, err)
	inner, err := spec.Build.System(c.cfg, []string{"SingleLeader", "Agreement", "Termination"})
	if err != nil {
		return false, false // a refused combination (say, everyone down)
	}
	name := fmt.Sprintf("%s %+v", c.algo, c.cfg)
	opts := explore.Options{Targets: explore.Targets{Invariants: []int{0, 1}}, Continue: true, Workers: 1, MaxStates: maxStates}
	full := &observed{System: inner}
	fr, err := explore.Run(full.reset(), opts)
	require.NoError(t, err, name)
	if !fr.Complete {
		return false, false
	}
	red := &observed{System: inner}
	opts.Reduce = true
	rr, err := explore.Run(red.reset(), opts)
	require.NoError(t, err, name)
	require.True(t, rr.Complete, name)
	require.LessOrEqual(t, rr.States, fr.States, name)
	require.Equal(t, violated(fr), violated(rr), "violated invariants: %s", name)
	require.Equal(t, full.views, red.views, "reachable liveness and elected values: %s", name)
	require.Equal(t, full.terminal, red.terminal, "reachable terminal states: %s", name)
	return true, rr.States < fr.States
}

// Reduced and full searches agree on random configurations: a slice here,
// and over a thousand with -tags slow.
func TestReductionAgreesOnRandomConfigs(t *testing.T) {
	want, maxStates := 25, int64(20_000)
	if slow.On {
		want, maxStates = 1200, 200_000
	}
	r := rand.New(rand.NewPCG(39, 5))
	compared, reduced, drawn := 0, 0, 0
	for compared < want {
		drawn++
		require.Less(t, drawn, 4*want, "too many configurations refused or too large")
		if ok, less := reductionAgrees(t, randomConfig(r), maxStates); ok {
			compared++
			if less {
				reduced++
			}
		}
	}
	// The comparison is of something: some searches were reduced.
	require.Greater(t, reduced, want/10, "of %d configurations", compared)
}
