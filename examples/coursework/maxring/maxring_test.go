package maxring_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"example.com/coursework/maxring"
	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
	"github.com/mcheck/mcheck/specs/changroberts"
)

// Every property holds with the perfect detector and no faults, every
// process an initiator, on a complete search that never hit the channel
// bound.
func TestMaxRingIsCorrect(t *testing.T) {
	for _, tc := range []struct {
		cfg                 mchecktest.Config
		states, transitions int64
	}{
		{mchecktest.Config{N: 3}, 25, 48},
		{mchecktest.Config{N: 4}, 63, 165},
		{mchecktest.Config{IDs: []int{3, 9, 4, 8}}, 76, 192}, // the ring of the notes
	} {
		rep := mchecktest.Check(t, maxring.Algorithm{}, tc.cfg)
		require.NotNil(t, rep)
		for _, v := range rep.Verdicts {
			assert.Equal(t, check.Holds, v.Status, "%s %+v", v.Name, tc.cfg)
		}
		assert.Equal(t, tc.states, rep.Stats.States, "%+v", tc.cfg)
		assert.Equal(t, tc.transitions, rep.Stats.Transitions, "%+v", tc.cfg)
		assert.Equal(t, int64(0), rep.Stats.Discarded, "%+v", tc.cfg)
	}
}

// Against Chang-Roberts: with IDs ascending along the ring the two explore
// the same numbers of states and transitions (25/48 and 63/165). On the
// notes' ring 3,9,4,8 they differ (Chang-Roberts: 75 states and 191
// transitions, maxring 76 and 192): maxring remembers which ID it has seen
// where Chang-Roberts keeps one bit, and drops an ELECTION(j) whenever j is
// below that ID, where Chang-Roberts forwards every j above the receiver's
// own ID.
func TestComparedWithChangRoberts(t *testing.T) {
	for _, tc := range []struct {
		cfg                 mchecktest.Config
		states, transitions int64
	}{
		{mchecktest.Config{N: 3}, 25, 48},
		{mchecktest.Config{N: 4}, 63, 165},
		{mchecktest.Config{IDs: []int{3, 9, 4, 8}}, 75, 191},
	} {
		rep := mchecktest.Check(t, changroberts.Algorithm{}, tc.cfg)
		require.NotNil(t, rep)
		assert.Equal(t, tc.states, rep.Stats.States, "%+v", tc.cfg)
		assert.Equal(t, tc.transitions, rep.Stats.Transitions, "%+v", tc.cfg)
	}
}

// The rule is about several initiators, not about crashes: with one crash
// Termination fails, as it does for Chang-Roberts (an ELECTION of the
// crashed process circulates).
func TestNotCrashTolerant(t *testing.T) {
	rep, err := mchecktest.Run(maxring.Algorithm{}, mchecktest.Config{N: 3, Crashes: 1, Continue: true})
	require.NoError(t, err)
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "SingleLeader"))
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "Agreement"))
	assert.Equal(t, check.Violated, mchecktest.Status(rep, "Termination"))
	assert.Equal(t, int64(265), rep.Stats.States)
}

// Local has no Codec: the kernel takes the generic hashstructure/v2 path.
func TestNoCodecTakesTheGenericPath(t *testing.T) {
	sys, err := specs.Builder(maxring.Algorithm{}).System(model.Config{N: 3}, nil)
	require.NoError(t, err)
	g, ok := sys.(interface{ Generic() bool })
	require.True(t, ok)
	assert.True(t, g.Generic())
}
