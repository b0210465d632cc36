package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcheck/mcheck/model"
	"github.com/mcheck/mcheck/ts"
)

// bare is a transition system that cannot describe its states: one state,
// no steps.
type bare struct{}

func (bare) NewExpander() ts.Expander    { return bareExp{} }
func (bare) Predicates() []string        { return nil }
func (bare) FairClass(int32) string      { return "" }
func (bareExp) Initial(out *ts.Batch)    { out.Add(0, ts.NoFairness, 0, []byte{0}) }
func (bareExp) Expand([]byte, *ts.Batch) {}
func (bareExp) Label([]byte, ts.Action) string {
	return "step"
}

type bareExp struct{}

// The explorer needs only a ts.System; tools that show states ask for more,
// and say so when the system cannot give it.
func TestExpanderOf(t *testing.T) {
	x, err := model.ExpanderOf(bare{})
	require.Error(t, err)
	assert.Nil(t, x)
	assert.Contains(t, err.Error(), "model_test.bareExp does not describe its states")

	k := ringSystem(t, model.Config{N: 2})
	x, err = model.ExpanderOf(k)
	require.NoError(t, err)
	var b model.Batch
	x.Initial(&b)
	require.Len(t, b.Succs, 1)
	assert.Len(t, x.Snapshot(b.State(0)).Processes, 2)
}
