package mchecktest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/check"
	"github.com/mcheck/mcheck/examples/lease"
	"github.com/mcheck/mcheck/mchecktest"
	"github.com/mcheck/mcheck/model"
)

func leaseConfig(params map[string]int) mchecktest.Config {
	return mchecktest.Config{N: 2, Timing: model.Sync, InitialLeader: true, Params: params}
}

// Config.Params sets the algorithm's parameters as --param does: a lease of
// H + D is caught, one tick more holds, and the report's configuration
// keeps every parameter's value.
func TestConfigParams(t *testing.T) {
	rep, err := mchecktest.Run(lease.Algorithm{}, leaseConfig(map[string]int{"H": 2, "L": 3}))
	require.NoError(t, err)
	assert.Equal(t, check.Violated, mchecktest.Status(rep, "SingleLeader"))
	assert.Equal(t, map[string]int{"H": 2, "L": 3}, rep.Config.Params)

	rep = mchecktest.Check(t, lease.Algorithm{}, leaseConfig(map[string]int{"L": 4}))
	assert.Equal(t, map[string]int{"H": 2, "L": 4}, rep.Config.Params, "H at its default")
	assert.Equal(t, check.Holds, mchecktest.Status(rep, "SingleLeader"))
}

// A name the algorithm does not declare, or a value out of range, is named
// by Config's field.
func TestConfigParamsMistakes(t *testing.T) {
	_, err := mchecktest.Run(lease.Algorithm{}, leaseConfig(map[string]int{"Lease": 4}))
	assert.EqualError(t, err, "Config.Params Lease=4: the algorithm has no parameter Lease; its parameters are H (1 to 20, default 2: the heartbeat period, in ticks), L (1 to 40, default 6: the lease, in ticks)")
	_, err = mchecktest.Run(lease.Algorithm{}, leaseConfig(map[string]int{"H": 0}))
	assert.ErrorContains(t, err, "Config.Params H=0 is out of range: give H from 1 to 20; ")
}
