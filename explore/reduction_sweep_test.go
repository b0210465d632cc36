package explore_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// A wider sweep of the reduction's guarantees over the algorithms that
// reduce: every detector, channel bounds of 1 and 2, several initiator sets,
// with and without an initial leader, and fault modes whose tails reduce.
// Each configuration must reach the same liveness-and-elected combinations
// and the same terminal states with and without reduction.
func TestReductionSweep(t *testing.T) {
	reg := specs.Builtin()
	var cfgs []diffConfig
	for _, algo := range []string{"ring", "chang-roberts", "lelann", "hirschberg-sinclair"} {
		for n := 3; n <= 5; n++ {
			for _, det := range []model.Detector{model.Perfect, model.Unreliable} {
				for _, mq := range []int{1, 2, 0} {
					for _, inits := range [][]int{nil, {1, n}, {2}} {
						for _, il := range []bool{false, true} {
							if det == model.Unreliable && n > 4 {
								continue
							}
							cfgs = append(cfgs, diffConfig{algo, model.Config{N: n, Detector: det, MaxQueue: mq, Initiators: inits, InitialLeader: il}})
						}
					}
				}
			}
		}
		cfgs = append(cfgs, diffConfig{algo, model.Config{N: 4, MaxCrashes: 1, MaxQueue: 2}}, diffConfig{algo, model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, MaxQueue: 2}})
	}
	for _, c := range cfgs {
		spec, _ := reg.Lookup(c.algo)
		inner, err := spec.Build.System(c.cfg, []string{"SingleLeader", "Agreement", "Termination"})
		if err != nil {
			continue
		}
		full := &observed{System: inner}
		opts := explore.Options{Continue: true, Workers: 1, MaxStates: 2_000_000}
		fr, err := explore.Run(full.reset(), opts)
		require.NoError(t, err)
		if !fr.Complete {
			continue
		}
		red := &observed{System: inner}
		opts.Reduce = true
		_, err = explore.Run(red.reset(), opts)
		require.NoError(t, err)
		name := fmt.Sprintf("%s %+v", c.algo, c.cfg)
		require.Equal(t, full.views, red.views, "reachable liveness and elected values: %s", name)
		require.Equal(t, full.terminal, red.terminal, "reachable terminal states: %s", name)
	}
}
