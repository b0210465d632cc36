package maxring_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"example.com/coursework/maxring"
	"github.com/mcheck/mcheck/cex"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/explore"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/ring"
)

// forgetful is maxring with a bug seeded for this test: a relay that is in
// an election already (its maxID from a lower ID) adopts a higher
// ELECTION but forgets to forward it. The highest candidate's message dies
// there, and every lower one dies at a process that has seen a higher ID:
// no one is elected.
type forgetful struct{ maxring.Algorithm }

func (f forgetful) Receive(c *model.Ctx[maxring.Msg], l *maxring.Local, from int, m maxring.Msg) {
	if m.Kind == ring.Election && m.J > c.ID() && l.MaxID != 0 && m.J > l.MaxID {
		l.MaxID, l.Elected = m.J, 0 // the bug: no c.SendNext(model.CW, m)
		return
	}
	f.Algorithm.Receive(c, l, from, m)
}

// At N = 12 the search runs out of its budget before it reaches a state
// where the bug shows (every process must have started or joined an
// election, and every message died); random runs get there at once.
func TestSimulationFindsTheForgetfulRelay(t *testing.T) {
	spec := specs.Spec{Name: "forgetful", Build: specs.Builder(forgetful{})}
	cfg := model.Config{N: 12}

	search, err := check.Run(check.Request{Spec: spec, Config: cfg, Continue: true, MaxStates: 100_000})
	require.NoError(t, err)
	assert.False(t, search.Stats.Complete, "the search does not finish within 100,000 states")
	assert.False(t, search.Violated(), "and finds no violation in them")

	rep, err := check.Run(check.Request{Spec: spec, Config: cfg, Strategy: &check.Simulate{Seed: 1, Runs: 50, Depth: 1000}})
	require.NoError(t, err)
	require.True(t, rep.Violated())
	v := mchecktest.Verdict(rep, "Termination")
	assert.Equal(t, check.Violated, v.Status)
	assert.Equal(t, cex.Stuck, v.Kind)
	require.NotNil(t, v.File, "replayed through the transition function (trace.Verify)")
	require.Len(t, rep.Found, 1)
	f := rep.Found[0]
	assert.Equal(t, int64(0), f.Run, "the first run finds it")
	assert.Equal(t, explore.RunSeed(1, 0), f.RunSeed)
	assert.Equal(t, 22, f.RawSteps)
	assert.Equal(t, 19, f.Steps)

	// Without the bug the same runs find nothing.
	ok, err := check.Run(check.Request{Spec: specs.Spec{Name: "maxring", Build: specs.Builder(maxring.Algorithm{})}, Config: cfg,
		Strategy: &check.Simulate{Seed: 1, Runs: 50, Depth: 1000}})
	require.NoError(t, err)
	assert.False(t, ok.Violated())
	assert.Equal(t, int64(50), ok.Simulation.Runs)
}
