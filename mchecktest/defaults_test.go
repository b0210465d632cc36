package mchecktest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/specs/ring"
)

// The default caps reach the search: the runaway model of caps_test.go
// would otherwise take 38 s to hit the state cap alone.
func TestDefaultCaps(t *testing.T) {
	req, maxTime, err := request(ring.Algorithm{}, Config{N: 3})
	require.NoError(t, err)
	assert.Equal(t, int64(DefaultMaxStates), req.MaxStates)
	assert.Equal(t, DefaultMaxTime, maxTime)
	assert.LessOrEqual(t, DefaultMaxTime, 10*time.Second)

	req, maxTime, err = request(ring.Algorithm{}, Config{N: 3, MaxStates: -1, MaxTime: -1})
	require.NoError(t, err)
	assert.Zero(t, req.MaxStates)
	assert.Zero(t, maxTime)
}
