package explore_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// A wider sweep of the reduction's guarantees over the algorithms that
// reduce: every detector, channel bounds of 1 and 2, several initiator sets,
// with and without an initial leader, and fault modes whose tails reduce.
// Each configuration must reach the same liveness-and-elected combinations
// and the same terminal states with and without reduction.
func TestReductionSweep(t *testing.T) {
	slow.Test(t) // 5 s; TestReductionKeepsVerdicts covers each algorithm in the fast loop
	reg := specs.Builtin()
	var cfgs []diffConfig
	for _, algo := range []string{"ring", "chang-roberts", "lelann", "hirschberg-sinclair"} {
		for n := 3; n <= 5; n++ {
			for _, det := range []model.Detector{model.Perfect, model.Unreliable} {
				for _, mq := range []int{1, 2, 0} {
					for _, inits := range [][]int{nil, {1, n}, {2}} {
						for _, il := range []bool{false, true} {
							if det == model.Unreliable && (n > 4 || n == 4 && algo == "ring" && mq == 0 && inits == nil) {
								continue // over 2 million states: too slow here
							}
							cfgs = append(cfgs, diffConfig{algo, model.Config{N: n, Detector: det, MaxQueue: mq, Initiators: inits, InitialLeader: il}})
						}
					}
				}
			}
		}
		crashN := 4
		if algo == "hirschberg-sinclair" {
			crashN = 3 // over 2 million states at 4
		}
		cfgs = append(cfgs, diffConfig{algo, model.Config{N: crashN, MaxCrashes: 1, MaxQueue: 2}}, diffConfig{algo, model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, MaxQueue: 2}})
	}
	ran := 0
	for _, c := range cfgs {
		name := fmt.Sprintf("%s %+v", c.algo, c.cfg)
		spec, err := reg.Lookup(c.algo)
		require.NoError(t, err)
		inner, err := spec.Build.System(c.cfg, []string{"SingleLeader", "Agreement", "Termination"})
		require.NoError(t, err, name)
		full := &observed{System: inner}
		opts := explore.Options{Continue: true, Workers: 1, MaxStates: 2_000_000}
		fr, err := explore.Run(full.reset(), opts)
		require.NoError(t, err)
		require.True(t, fr.Complete, "%s: %s (leave it out of the sweep)", name, fr.Stopped)
		red := &observed{System: inner}
		opts.Reduce = true
		_, err = explore.Run(red.reset(), opts)
		require.NoError(t, err)
		require.Equal(t, full.views, red.views, "reachable liveness and elected values: %s", name)
		require.Equal(t, full.terminal, red.terminal, "reachable terminal states: %s", name)
		ran++
	}
	// Every configuration of the sweep was compared.
	require.Equal(t, len(cfgs), ran)
	require.Equal(t, 4*(2*(2*3*3*2)+3*3*2+2)-2, ran)
}
