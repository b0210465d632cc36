package check_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/internal/slow"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// Whole states (Exact) and fingerprints give the same search at any
// number of workers: with the liveness graph, with partial-order
// reduction, and when --max-states cuts a batch.
func TestExactMatchesFingerprints(t *testing.T) {
	cases := []struct {
		algo      string
		cfg       model.Config
		sel       []string
		reduce    bool
		maxStates int64
		slow      bool // 2 s: -tags slow
	}{
		{"bully", model.Config{N: 4, MaxCrashes: 3, InitialLeader: true}, nil, false, 0, true},
		{"lelann", model.Config{N: 5}, []string{"SingleLeader", "Agreement"}, true, 0, false},
		{"hirschberg-sinclair", model.Config{N: 3, MaxCrashes: 1}, nil, false, 0, false},
		{"chang-roberts", model.Config{N: 5, MaxCrashes: 2}, nil, false, 50_000, true},
		{"chang-roberts", model.Config{N: 4, MaxCrashes: 2}, nil, false, 2_000, false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%+v", c.algo, c.cfg), func(t *testing.T) {
			if c.slow {
				slow.Test(t)
			}
			spec, err := specs.Builtin().Lookup(c.algo)
			require.NoError(t, err)
			var want *check.Report
			for _, exact := range []bool{false, true} {
				for _, workers := range []int{1, 3} {
					rep, err := check.Run(check.Request{Spec: spec, Config: c.cfg, Properties: c.sel, Continue: true,
						Reduce: c.reduce, MaxStates: c.maxStates, Exact: exact, Workers: workers})
					require.NoError(t, err)
					require.Equal(t, exact, rep.Stats.Exact)
					require.Equal(t, c.maxStates == 0, rep.Stats.Complete, rep.Stats.Stopped)
					if want == nil {
						want = rep
						continue
					}
					requireSameSearch(t, want, rep)
				}
			}
		})
	}
}
