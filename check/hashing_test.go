package check_test

import (
	"fmt"
	"testing"

	"github.com/mcheck/mcheck/explore"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// The built-in specs hash a compact canonical encoding; the generic path
// identifies local states and messages with hashstructure/v2. Both must
// explore exactly the same state graph.
func TestFastAndGenericHashingExploreTheSameStates(t *testing.T) {
	configs := []struct {
		algo string
		cfg  model.Config
		slow bool // over a second: -tags slow
	}{
		{"ring", model.Config{N: 3}, false},
		{"ring", model.Config{N: 3, MaxCrashes: 1}, true},
		{"chang-roberts", model.Config{N: 3, MaxCrashes: 2}, false},
		{"chang-roberts", model.Config{N: 4}, false},
		{"lelann", model.Config{N: 4}, false},
		{"lelann", model.Config{N: 3, MaxCrashes: 2, IDs: []int{3, 9, 4}}, false},
		{"hirschberg-sinclair", model.Config{N: 3}, false},
		{"hirschberg-sinclair", model.Config{N: 3, MaxCrashes: 1}, true},
		{"bully", model.Config{N: 3}, false},
		{"bully", model.Config{N: 3, MaxCrashes: 2, InitialLeader: true}, false},
		{"bully", model.Config{N: 3, MaxCrashes: 1, MaxRestarts: 1, InitialLeader: true}, false},
		{"bully", model.Config{N: 3, Detector: model.Unreliable, InitialLeader: true, MaxQueue: 2}, true},
	}
	for _, c := range configs {
		t.Run(fmt.Sprintf("%s/%+v", c.algo, c.cfg), func(t *testing.T) {
			if c.slow {
				slow.Test(t)
			}
			spec, err := specs.Builtin().Lookup(c.algo)
			require.NoError(t, err)
			// Each built-in algorithm has a Codec, so the two runs below take
			// different paths: without one both would be generic.
			for _, generic := range []bool{false, true} {
				var opts []model.Option
				if generic {
					opts = append(opts, model.WithGenericHashing())
				}
				sys, err := spec.Build.System(c.cfg, nil, opts...)
				require.NoError(t, err)
				k, ok := sys.(interface{ Generic() bool })
				require.True(t, ok, "%T does not say which hashing it uses", sys)
				require.Equal(t, generic, k.Generic(), "generic hashing")
			}
			run := func(generic bool) *check.Report {
				rep, err := check.Run(check.Request{Spec: spec, Config: c.cfg, Continue: true, Generic: generic})
				require.NoError(t, err)
				require.True(t, rep.Stats.Complete)
				return rep
			}
			requireSameSearch(t, run(false), run(true))
		})
	}
}

// requireSameSearch fails unless two reports have the same counts, the
// same verdicts and the same counterexamples.
func requireSameSearch(t *testing.T, want, got *check.Report) {
	t.Helper()
	require.Equal(t, want.Stats.States, got.Stats.States, "states")
	require.Equal(t, want.Stats.Transitions, got.Stats.Transitions, "transitions")
	require.Equal(t, want.Stats.Depth, got.Stats.Depth, "depth")
	require.Equal(t, want.Stats.Discarded, got.Stats.Discarded, "discarded")
	require.Equal(t, want.Stats.ReducedStates, got.Stats.ReducedStates, "reduced states")
	for i := range want.Verdicts {
		require.Equal(t, want.Verdicts[i].Status, got.Verdicts[i].Status, want.Verdicts[i].Name)
		if want.Verdicts[i].Trace != nil {
			// Same shortest counterexample: same actions step by step.
			require.Equal(t, labels(want.Verdicts[i].Trace.Steps), labels(got.Verdicts[i].Trace.Steps))
		}
	}
}

func labels(steps []explore.Step) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Label
	}
	return out
}
