package explore_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

func specSystem(t *testing.T, algo string, cfg model.Config) model.System {
	t.Helper()
	sp, err := specs.Builtin().Lookup(algo)
	require.NoError(t, err)
	sys, err := sp.Build.System(cfg, nil)
	require.NoError(t, err)
	return sys
}

func measures(t *testing.T, sys model.System, workers int) *explore.Measures {
	t.Helper()
	return measuresOf(t, sys, explore.Options{Measure: true, Continue: true, Workers: workers})
}

// measuresOf is the measures of a search with opt.
func measuresOf(t *testing.T, sys model.System, opt explore.Options) *explore.Measures {
	t.Helper()
	res := run(t, sys, opt)
	require.True(t, res.Complete)
	require.NotNil(t, res.Measures, res.MeasuresSkipped)
	res.Measures.Elapsed = 0 // the only field that may differ between runs
	return res.Measures
}

// quiescent: no fair step enabled and none discarded by the bound.
func quiescent(sys model.System, state []byte) bool {
	var b model.Batch
	sys.NewExpander().Expand(state, &b)
	if b.Discarded > 0 {
		return false
	}
	for _, s := range b.Succs {
		if s.Fair != model.NoFairness {
			return false
		}
	}
	return true
}

// checkWitnesses replays every bounded witness: it ends in a quiescent
// state and its steps send exactly the figure.
func checkWitnesses(t *testing.T, sys model.System, m *explore.Measures) {
	t.Helper()
	names, figs := m.Figures()
	for i, f := range figs {
		count := func(tr explore.Trace) int {
			n := 0
			for _, s := range tr.Steps[1:] {
				switch {
				case names[i] == "total":
					n += s.Sent.Total()
				case names[i] == "lost":
					n += int(s.Sent.Lost)
				default:
					n += int(s.Sent.ByType[i-1])
				}
			}
			return n
		}
		requireReplays(t, sys, f.MinRun)
		assert.True(t, quiescent(sys, f.MinRun.Final().State), "%s: the min witness ends in a quiescent state", names[i])
		assert.Equal(t, f.Min, count(f.MinRun), "%s: the min witness sends the min", names[i])
		if f.Unbounded {
			continue
		}
		requireReplays(t, sys, f.MaxRun)
		assert.True(t, quiescent(sys, f.MaxRun.Final().State), names[i])
		assert.Equal(t, f.Max, count(f.MaxRun), "%s: the max witness sends the max", names[i])
	}
}

func TestMeasuresWitnessesAttainTheirFigure(t *testing.T) {
	for _, c := range []struct {
		algo string
		cfg  model.Config
	}{
		{"chang-roberts", model.Config{N: 4}},
		{"chang-roberts", model.Config{N: 3, MaxCrashes: 1}},
		{"bully", model.Config{N: 4, Down: []int{4}, InitialLeader: true}},
		{"ring", model.Config{N: 3, MaxQueue: 1}},
	} {
		t.Run(fmt.Sprintf("%s %+v", c.algo, c.cfg), func(t *testing.T) {
			sys := specSystem(t, c.algo, c.cfg)
			m := measures(t, sys, 1)
			require.True(t, m.CompleteRuns)
			checkWitnesses(t, sys, m)
		})
	}
}

// A false suspicion can restart the election forever and still let it end:
// the maximum is unbounded, and the witness is a lasso whose cycle sends.
func TestMeasuresUnboundedLasso(t *testing.T) {
	sys := specSystem(t, "chang-roberts", model.Config{N: 2, Detector: model.Unreliable})
	m := measures(t, sys, 1)
	require.True(t, m.Total.Unbounded)
	assert.Equal(t, 4, m.Total.Min)
	lasso := m.Total.MaxRun
	require.GreaterOrEqual(t, lasso.CycleStart, 0)
	requireReplays(t, sys, lasso)
	assert.True(t, bytes.Equal(lasso.Final().State, lasso.Steps[lasso.CycleStart].State), "the cycle closes")
	sent := 0
	for _, s := range lasso.Steps[lasso.CycleStart+1:] {
		sent += s.Sent.Total()
	}
	assert.Positive(t, sent, "the cycle sends")
	assert.False(t, m.Lost.Unbounded)
	assert.Equal(t, 0, m.Lost.Max)
}

// A counter that can always step, fairly, never comes to rest.
func TestMeasuresNoCompleteRuns(t *testing.T) {
	m := measures(t, newCounter(t, mod5), 1)
	assert.False(t, m.CompleteRuns)
}

// The measures are the same at any worker count and when the parent links
// and the frontier go to disk.
func TestMeasuresSameWithSpillingAndWorkers(t *testing.T) {
	t.Parallel()
	sys := specSystem(t, "bully", model.Config{N: 4, Down: []int{4}, Initiators: []int{1}, InitialLeader: true})
	want := measures(t, sys, 1)
	for _, w := range []int{1, 2} {
		got := measuresOf(t, sys, explore.SpillEverything(explore.Options{Measure: true, Continue: true, Workers: w}))
		assert.Equal(t, want, got, "workers=%d, spilled", w)
	}
	checkWitnesses(t, sys, want)
}
