package model_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/ts"
)

// Fingerprint values are part of a search's result where the search
// trusts them (bitstate: which states a too-small bit array merges), so a
// change to the state's definition that means none must keep every one of
// them. These are the fingerprints of the first successors of four
// configurations, folded in order, as the kernel gave them at 94191cd.
func TestFingerprintValuesUnchanged(t *testing.T) {
	for _, c := range []struct {
		algo string
		cfg  model.Config
		want uint64
	}{
		{"bully", model.Config{N: 4}, 0x32b4089575a4e573},
		{"chang-roberts", model.Config{N: 4, MaxCrashes: 3}, 0x4a059d5a24ec3405},
		{"bully", model.Config{N: 3, MaxCrashes: 2, MaxRestarts: 1, Detector: model.Unreliable}, 0xc024c762faa884c6},
		{"lelann", model.Config{N: 3, Perm: true, MaxCrashes: 1}, 0xaf3c79f2667bba13},
	} {
		t.Run(fmt.Sprintf("%s/n=%d", c.algo, c.cfg.N), func(t *testing.T) {
			spec, err := specs.Builtin().Lookup(c.algo)
			require.NoError(t, err)
			sys, err := spec.Build.System(c.cfg, nil)
			require.NoError(t, err)
			x := sys.NewExpander()
			var b ts.Batch
			x.Initial(&b)
			var fold uint64
			seen := map[string]bool{}
			var queue [][]byte
			add := func() {
				for i := range b.Succs {
					fold = fold*0x100000001b3 ^ b.Succs[i].FP
					if s := b.State(i); !seen[string(s)] && len(seen) < 5000 {
						seen[string(s)] = true
						queue = append(queue, slices.Clone(s))
					}
				}
			}
			add()
			for ; len(queue) > 0; queue = queue[1:] {
				x.Expand(queue[0], &b)
				add()
			}
			t.Logf("fold %#x over %d states", fold, len(seen))
			require.Equal(t, c.want, fold)
		})
	}
}
