package specs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/specs"
)

// The kinds of step a configuration can take, which a simulation's report
// names when they were never taken.
func TestKindsOfAConfiguration(t *testing.T) {
	k := func(algo string, cfg model.Config) []model.Kind {
		spec, err := specs.Builtin().Lookup(algo)
		require.NoError(t, err)
		sys, err := spec.Build.System(cfg, nil)
		require.NoError(t, err)
		return sys.(interface{ Kinds() []model.Kind }).Kinds()
	}
	D, I, T, S, E, C, R, K, G := model.KindDeliver, model.KindInitiate, model.KindTimeout, model.KindSuspect, model.KindEarlyTimeout, model.KindCrash, model.KindRestart, model.KindTick, model.KindGST
	assert.Equal(t, []model.Kind{D, I}, k("ring", model.Config{N: 3}))
	assert.Equal(t, []model.Kind{D, I, C}, k("chang-roberts", model.Config{N: 3, MaxCrashes: 1}))
	assert.Equal(t, []model.Kind{D, I, T, S, E, C, R}, k("bully", model.Config{N: 3, MaxCrashes: 2, MaxRestarts: 1, Detector: model.Unreliable}))
	assert.Equal(t, []model.Kind{D, I, T, C, K}, k("bully", model.Config{N: 3, MaxCrashes: 1, Timing: model.Sync}))
	assert.Equal(t, []model.Kind{D, I, T, S, C, K, G}, k("bully", model.Config{N: 3, MaxCrashes: 1, Timing: model.Partial, Detector: model.Unreliable}),
		"no early timeouts in a timed mode")
	assert.Equal(t, []model.Kind{D, I, K}, k("lelann", model.Config{N: 3, Timing: model.Sync}))
}
