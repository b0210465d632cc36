package model_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
)

// Fingerprint values are part of a search's result where the search
// trusts them (bitstate: which states a too-small bit array merges), so a
// change to the state's definition that means none must keep every one of
// them. These are the fingerprints of the successors of the first 3,000
// states of four configurations, folded in order, as the kernel gave them
// at 94191cd.
func TestFingerprintValuesUnchanged(t *testing.T) {
	for _, c := range []struct {
		name string
		algo string
		cfg  model.Config
		want uint64
	}{
		{"bully-boot", "bully", model.Config{N: 4}, 0xcfef12b9be195962},
		{"chang-roberts-crash-any", "chang-roberts", model.Config{N: 4, MaxCrashes: 3}, 0x5a84767637d2743f},
		{"bully-unreliable-restarts", "bully", model.Config{N: 3, MaxCrashes: 2, MaxRestarts: 1, Detector: model.Unreliable}, 0x84c2c91d9a2340c8},
		{"lelann-perm", "lelann", model.Config{N: 3, Perm: true, MaxCrashes: 1}, 0x6364f1ab34807123},
	} {
		t.Run(c.name, func(t *testing.T) {
			sys, states := benchStates(t, c.algo, c.cfg, 3000)
			x := sys.NewExpander()
			var b model.Batch
			var fold uint64
			for _, s := range states {
				x.Expand(s, &b)
				for i := range b.Succs {
					fold = fold*0x100000001b3 ^ b.Succs[i].FP
				}
			}
			require.Equal(t, c.want, fold, "fold %#x over %d states", fold, len(states))
		})
	}
}
