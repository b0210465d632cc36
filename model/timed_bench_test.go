package model_test

import (
	"testing"

	"github.com/mcheck/mcheck/model"
)

// The successor path per state, untimed and timed (docs/semantics.md section
// 6), over the first 3,000 states of bully --n 4 --crash-any: decode, every
// step (a tick included), encode, fingerprint, predicates.
func BenchmarkExpandTimed(b *testing.B) {
	for _, c := range []struct {
		name string
		cfg  model.Config
	}{
		{"bully-n4-crash-any", model.Config{N: 4, MaxCrashes: 3, InitialLeader: true}},
		{"bully-n4-crash-any-sync", model.Config{N: 4, MaxCrashes: 3, InitialLeader: true, Timing: model.Sync}},
	} {
		b.Run(c.name, func(b *testing.B) {
			sys, states := benchStates(b, "bully", c.cfg, 3000)
			x := sys.NewExpander()
			var batch model.Batch
			var transitions int64
			for b.Loop() {
				for _, s := range states {
					x.Expand(s, &batch)
					transitions += int64(len(batch.Succs))
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(b.N)/float64(len(states)), "ns/state")
			b.ReportMetric(float64(transitions)/float64(b.N)/float64(len(states)), "succs/state")
		})
	}
}
